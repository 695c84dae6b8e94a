import {findApiKey} from '../config/api-key.js';
import {managementChoices, type ManagementChoice} from '../api/management-choice.js';
import {UsageError} from '../lib/usage-error.js';

export const defaultApiUrl = 'https://api.runpod.ai/v2';
export const defaultGraphqlUrl = 'https://api.runpod.io/graphql';

export type TargetOptions = {
	readonly demo?: boolean;
	readonly apiUrl?: string;
	readonly graphqlUrl?: string;
	readonly restUrl?: string;
	readonly managementApi?: string;
	readonly profile?: string;
	readonly env?: NodeJS.ProcessEnv;
	readonly configPath?: string;
};

export type Target =
	| {readonly mode: 'demo'; readonly warnings: readonly string[]; readonly managementApi?: ManagementChoice}
	| {
			readonly mode: 'live';
			readonly apiUrl: string;
			readonly graphqlUrl: string;
			/** REST v2's origin (`RUNPOD_API_BASE_URL`, as the service's own tools read it); by default the GraphQL URL's origin. */
			readonly restUrl?: string;
			/** By default `auto`. */
			readonly managementApi?: ManagementChoice;
			readonly apiKey: string;
			/** Where the key came from, as the header names the account: a profile's name, `env` or `config`. */
			readonly keyLabel?: string;
			readonly warnings: readonly string[];
	  };

/** `name` says where the URL was given: `--api-url`, or a config file's section and key. */
function checkUrl(name: string, value: string): string {
	let url: URL;
	try {
		url = new URL(value);
	} catch {
		throw new UsageError(`${name} is not a URL: ${value}`);
	}

	if (url.protocol !== 'https:' && url.protocol !== 'http:') {
		throw new UsageError(`${name} must be http or https`);
	}

	if (url.username || url.password || url.searchParams.has('api_key')) {
		throw new UsageError(`${name} must not carry credentials; set RUNPOD_API_KEY instead`);
	}

	return value.replace(/\/+$/, '');
}

function checkChoice(value: string | undefined): ManagementChoice {
	if (value === undefined) {
		return 'auto';
	}

	if (!(managementChoices as readonly string[]).includes(value)) {
		throw new UsageError(`--management-api must be one of ${managementChoices.join(', ')}, got ${value}`);
	}

	return value as ManagementChoice;
}

/** REST v2's origin (its paths carry `/v2`) when none is given: the GraphQL URL's, `https://api.runpod.io` for the service. */
export const restUrlFor = (target: {readonly restUrl?: string; readonly graphqlUrl: string}) => target.restUrl ?? new URL(target.graphqlUrl).origin;

/** Live against the real service (or `--api-url`), or DEMO on the built-in simulator when there is no key. */
export function resolveTarget(options: TargetOptions): Target {
	const apiUrl = options.apiUrl === undefined ? undefined : checkUrl('--api-url', options.apiUrl);
	const graphqlUrl = options.graphqlUrl === undefined ? undefined : checkUrl('--graphql-url', options.graphqlUrl);
	const fromEnvironment = options.env?.RUNPOD_API_BASE_URL?.trim() || undefined;
	const restUrl =
		options.restUrl === undefined
			? fromEnvironment === undefined
				? undefined
				: checkUrl('RUNPOD_API_BASE_URL', fromEnvironment)
			: checkUrl('--rest-url', options.restUrl);
	const managementApi = checkChoice(options.managementApi);
	if (options.demo) {
		return {mode: 'demo', warnings: [], managementApi};
	}

	const key = findApiKey({env: options.env, configPath: options.configPath, profile: options.profile});
	if (key.configError) {
		// A broken file must not quietly turn a live session into the demo.
		throw new UsageError(key.configError);
	}

	if (!key.apiKey) {
		if (options.profile) {
			throw new UsageError(`no API key for profile "${options.profile}" in ~/.runpod/config.toml`);
		}

		if (apiUrl || graphqlUrl || options.restUrl) {
			throw new UsageError('no API key: set RUNPOD_API_KEY or add api_key to ~/.runpod/config.toml');
		}

		return {mode: 'demo', warnings: [...key.warnings, 'No API key configured: running on the built-in simulator (DEMO).'], managementApi};
	}

	// The key's section may say where its account is (`api_url`, `graphql_url`, `rest_url`); a flag (or RUNPOD_API_BASE_URL) still wins.
	const fromFile = (name: 'api_url' | 'graphql_url' | 'rest_url', value: string | undefined) =>
		value ? checkUrl(`${name} of ${key.origin}`, value) : undefined;
	return {
		mode: 'live',
		apiUrl: apiUrl ?? fromFile('api_url', key.urls?.apiUrl) ?? defaultApiUrl,
		graphqlUrl: graphqlUrl ?? fromFile('graphql_url', key.urls?.graphqlUrl) ?? defaultGraphqlUrl,
		restUrl: restUrl ?? fromFile('rest_url', key.urls?.restUrl),
		managementApi,
		apiKey: key.apiKey,
		keyLabel: key.label,
		warnings: key.warnings,
	};
}
