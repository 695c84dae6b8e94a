import {readFileSync, statSync} from 'node:fs';
import {AlertRulesError, parseAlertRules} from '../config/alert-rules.js';
import {findApiKey} from '../config/api-key.js';
import {parseTomlDocument} from '../config/toml.js';
import {localeIsUtf8} from '../format/glyphs.js';
import {minimumNodeMajor} from '../lib/minimum-node.js';
import {checkResult, type CheckResult} from './check.js';

export function nodeCheck(version = process.versions.node): CheckResult {
	const [major = 0] = version.split('.').map(Number);
	const ok = major >= minimumNodeMajor;
	return checkResult({
		id: 'node',
		title: 'Node.js',
		status: ok ? 'ok' : 'fail',
		found: `v${version}`,
		...(ok ? {} : {fix: `podtop needs Node.js ${minimumNodeMajor} or newer: install a current LTS (nodejs.org, or your package manager's nodejs)`}),
		figures: {version},
	});
}

type Terminal = {readonly isTty: boolean; readonly columns?: number; readonly rows?: number; readonly colorDepth?: number};

/** TERM, colours, UTF-8 and size, as the dashboard will find them. */
export function terminalCheck(env: NodeJS.ProcessEnv, terminal: Terminal): CheckResult {
	const term = env.TERM ?? '';
	const utf8 = localeIsUtf8(env);
	const colours = env.NO_COLOR ? 'off (NO_COLOR)' : terminal.colorDepth === undefined ? 'unknown' : `${2 ** terminal.colorDepth} colours`;
	const size = terminal.columns && terminal.rows ? `${terminal.columns}×${terminal.rows}` : 'no terminal';
	const encoding = utf8 ? 'UTF-8' : 'not UTF-8'; // eslint-disable-line unicorn/text-encoding-identifier-case -- the locale's name, as people write it
	const found = `TERM=${term || '(unset)'}, ${encoding}, ${colours}, ${size}`;
	const figures = {term, utf8, colorDepth: terminal.colorDepth, columns: terminal.columns, rows: terminal.rows};
	if (!terminal.isTty) {
		return checkResult({
			id: 'terminal',
			title: 'terminal',
			status: 'skip',
			found: `${found}: not a terminal (the dashboard needs one; headless verbs do not)`,
			figures,
		});
	}

	const problems: string[] = [];
	if (term === '' || term === 'dumb') {
		problems.push('set TERM to your terminal (xterm-256color works almost everywhere; ssh passes it on)');
	}

	if (!utf8) {
		problems.push('use a UTF-8 locale (export LANG=C.UTF-8) for the Unicode charts, or run podtop --ascii');
	}

	if ((terminal.columns ?? 0) < 80 || (terminal.rows ?? 0) < 24) {
		problems.push('the dashboard is laid out for 80×24 and more: enlarge the window');
	}

	return checkResult({
		id: 'terminal',
		title: 'terminal',
		status: problems.length > 0 ? 'warn' : 'ok',
		found,
		...(problems.length > 0 ? {fix: problems.join('; ')} : {}),
		figures,
	});
}

// eslint-disable-next-line no-bitwise
const readableByOthers = (mode: number) => (mode & 0o077) !== 0;

/**
A config file: absent is fine, present must parse (where it does not: line and column) and, when it
may hold the key, be readable by its owner only.
*/
export function configFileCheck({
	id,
	title,
	path,
	holdsKey,
	validate,
}: {
	readonly id: string;
	readonly title: string;
	readonly path: string;
	readonly holdsKey: boolean;
	/** What is wrong with a file that parses (an unknown key, a value of the wrong kind), if anything. */
	readonly validate?: (text: string) => string | undefined;
}): CheckResult {
	let text: string;
	let mode: number;
	try {
		mode = statSync(path).mode;
		text = readFileSync(path, 'utf8');
	} catch (error) {
		const {code} = error as NodeJS.ErrnoException;
		return code === 'ENOENT'
			? checkResult({id, title, status: 'skip', found: `${path}: none (optional)`})
			: checkResult({id, title, status: 'fail', found: `${path}: cannot be read (${code ?? 'error'})`, fix: `check its owner and permissions: ls -l ${path}`});
	}

	const parsed = parseTomlDocument(text);
	if ('problem' in parsed) {
		const {line, column, reason} = parsed.problem;
		return checkResult({
			id,
			title,
			status: 'fail',
			found: `${path} does not parse at line ${line}, column ${column}: ${reason}`,
			fix: `fix line ${line} of ${path}`,
		});
	}

	const problem = validate?.(text);
	if (problem) {
		return checkResult({id, title, status: 'fail', found: problem, fix: `fix it in ${path} (see the readme's Profiles)`});
	}

	if (holdsKey && readableByOthers(mode)) {
		return checkResult({id, title, status: 'fail', found: `${path} parses, but other users can read it (it holds the API key)`, fix: `chmod 600 ${path}`});
	}

	return checkResult({id, title, status: 'ok', found: `${path} parses${holdsKey ? ', private to you' : ''}`});
}

/** Where the key was found (never the key); no key is the demo, which is fine. */
export function keyCheck(env: NodeJS.ProcessEnv, configPath: string, profile: string | undefined): CheckResult {
	const key = findApiKey({env, configPath, profile});
	if (key.configError) {
		return checkResult({id: 'key', title: 'API key', status: 'fail', found: 'not read: the config file does not parse', fix: key.configError});
	}

	if (!key.apiKey) {
		return profile
			? checkResult({
					id: 'key',
					title: 'API key',
					status: 'fail',
					found: `none for profile "${profile}"`,
					fix: `add api_key under [${profile}] in ${configPath}, or drop --profile`,
				})
			: checkResult({
					id: 'key',
					title: 'API key',
					status: 'warn',
					found: 'none: podtop runs on its built-in simulator (DEMO)',
					fix: `for your account: export RUNPOD_API_KEY=… or add api_key under [default] in ${configPath} (chmod 600)`,
				});
	}

	// A named profile uses its own key: say so when the environment's is set too, so nobody wonders which applies.
	const unused = profile !== undefined && env.RUNPOD_API_KEY?.trim() ? '; RUNPOD_API_KEY is set but not used: --profile names its own key' : '';
	return checkResult({
		id: 'key',
		title: 'API key',
		status: 'ok',
		found: `from ${key.origin} (${key.apiKey.length} characters${unused})`,
		figures: {origin: key.origin},
	});
}

/** The alert rules: absent is fine, present must parse. */
export function alertRulesCheck(path: string, named: boolean): CheckResult {
	let text: string;
	try {
		text = readFileSync(path, 'utf8');
	} catch (error) {
		const {code} = error as NodeJS.ErrnoException;
		return code === 'ENOENT' && !named
			? checkResult({id: 'alerts', title: 'alert rules', status: 'skip', found: `${path}: none (optional)`})
			: checkResult({
					id: 'alerts',
					title: 'alert rules',
					status: 'fail',
					found: `${path}: cannot be read (${code ?? 'error'})`,
					fix: 'check the path given to --alerts',
				});
	}

	try {
		const {rules, webhook} = parseAlertRules(text, path);
		return checkResult({
			id: 'alerts',
			title: 'alert rules',
			status: 'ok',
			found: `${path}: ${rules.length} rule${rules.length === 1 ? '' : 's'}${webhook ? ', a webhook' : ''}`,
			figures: {rules: rules.length},
		});
	} catch (error) {
		if (error instanceof AlertRulesError) {
			return checkResult({
				id: 'alerts',
				title: 'alert rules',
				status: 'fail',
				found: error.message,
				fix: `fix ${path} (the readme's Alerts section has examples)`,
			});
		}

		throw error;
	}
}
