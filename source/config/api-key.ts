import {readFileSync, statSync} from 'node:fs';
import {homedir} from 'node:os';
import path from 'node:path';
import {parseConfigToml} from './toml.js';

export type KeySource = {
	readonly apiKey: string | undefined;
	/** Where it came from, for messages (never the key itself). */
	readonly origin: string;
	readonly warnings: readonly string[];
	/** The config file exists but does not parse: where, and how to get past it. */
	readonly configError?: string;
	/** What the header calls the account: the section's name, `env` for RUNPOD_API_KEY, `config` for the file's top-level key. */
	readonly label?: string;
	/** The section's own `api_url`, `graphql_url` and `rest_url` (an account elsewhere, say a `podtop sim`), when the key is from a section that has them. */
	readonly urls?: {readonly apiUrl?: string; readonly graphqlUrl?: string; readonly restUrl?: string};
};

export function defaultConfigPath(home = homedir()): string {
	return path.join(home, '.runpod', 'config.toml');
}

/**
Finds the API key. A profile named (`--profile`, `:profile`) is that section of
`~/.runpod/config.toml` and nothing else: `RUNPOD_API_KEY` must not turn `--profile prod` into
another account. With none named: `RUNPOD_API_KEY`, else the file's `[default] api_key`
(runpod-python), then its top-level `apikey` (runpodctl). Never from a command-line flag.
*/
export function findApiKey({
	env = process.env,
	configPath = defaultConfigPath(),
	profile: named,
}: {env?: NodeJS.ProcessEnv; configPath?: string; profile?: string} = {}): KeySource {
	const fromEnv = env.RUNPOD_API_KEY?.trim();
	if (fromEnv && named === undefined) {
		return {apiKey: fromEnv, origin: 'RUNPOD_API_KEY', label: 'env', warnings: []};
	}

	const profile = named ?? 'default';

	let text: string;
	const warnings: string[] = [];
	try {
		text = readFileSync(configPath, 'utf8');
		// eslint-disable-next-line no-bitwise
		if ((statSync(configPath).mode & 0o077) !== 0) {
			warnings.push(`${configPath} can be read by other users; run: chmod 600 ${configPath}`);
		}
	} catch {
		return {apiKey: undefined, origin: 'none', warnings};
	}

	const parsed = parseConfigToml(text);
	if ('problem' in parsed) {
		const {line, column, reason} = parsed.problem;
		return {
			apiKey: undefined,
			origin: 'none',
			warnings,
			configError: `${configPath} does not parse at line ${line}, column ${column}: ${reason}. ${
				named === undefined ? 'Fix it, or set RUNPOD_API_KEY (it overrides the file).' : `Fix it: profile "${named}" is read from it.`
			}`,
		};
	}

	const config = parsed.sections;
	const section = config[profile];
	const fromProfile = section?.api_key ?? section?.apikey;
	if (fromProfile) {
		const urls =
			section?.api_url || section?.graphql_url || section?.rest_url
				? {urls: {apiUrl: section.api_url, graphqlUrl: section.graphql_url, restUrl: section.rest_url}}
				: {};
		return {apiKey: fromProfile, origin: `${configPath} [${profile}]`, label: profile, warnings, ...urls};
	}

	if (profile !== 'default') {
		warnings.push(`profile "${profile}" not found in ${configPath}`);
		return {apiKey: undefined, origin: 'none', warnings};
	}

	const topLevel = config['']?.apikey ?? config['']?.api_key;
	return topLevel ? {apiKey: topLevel, origin: configPath, label: 'config', warnings} : {apiKey: undefined, origin: 'none', warnings};
}

/** The profiles of `~/.runpod/config.toml`: its sections' names (never a value); none when it is absent or does not parse. */
export function profileNames(configPath = defaultConfigPath()): string[] {
	let text: string;
	try {
		text = readFileSync(configPath, 'utf8');
	} catch {
		return [];
	}

	const parsed = parseConfigToml(text);
	return 'sections' in parsed ? Object.keys(parsed.sections).filter(name => name !== '') : [];
}
