import {existsSync, readFileSync} from 'node:fs';
import {homedir} from 'node:os';
import {join} from 'node:path';
import {AlertRulesError, parseAlertRules, type AlertRules} from '../config/alert-rules.js';
import {UsageError} from '../lib/usage-error.js';
import type {CompletableFlags} from './value-kind.js';

/** Flags of the commands that evaluate alert rules (the dashboard, `watch`, `agent`). */
export const alertFlags = {
	alerts: {type: 'string', complete: 'file'},
	bell: {type: 'boolean', default: true},
} as const satisfies CompletableFlags;

export const alertHelp = `
	Alerts
	  --alerts FILE     Alert rules (TOML; see the readme)  [default: ~/.config/podtop/alerts.toml if present]`;

export const bellHelp = `
	  --no-bell         No terminal bell when an alert fires (the banner still shows)`;

/** `$XDG_CONFIG_HOME/podtop/alerts.toml`, `~/.config/podtop/alerts.toml` by default. */
export function defaultAlertsPath(env: NodeJS.ProcessEnv = process.env): string {
	const config = env.XDG_CONFIG_HOME?.startsWith('/') ? env.XDG_CONFIG_HOME : join(homedir(), '.config');
	return join(config, 'podtop', 'alerts.toml');
}

/**
The rules of `--alerts FILE`, or of the default file when it exists; undefined when there are none.
A file named but missing, or one that cannot be used, is a usage error that says where and why.
*/
export function loadAlertRules(file: string | undefined, env: NodeJS.ProcessEnv = process.env): AlertRules | undefined {
	const path = file ?? defaultAlertsPath(env);
	if (file === undefined && !existsSync(path)) {
		return undefined;
	}

	let text: string;
	try {
		text = readFileSync(path, 'utf8');
	} catch (error) {
		throw new UsageError(`cannot read the alert rules ${path} (${(error as NodeJS.ErrnoException).code ?? 'error'}): check the path given to --alerts`);
	}

	try {
		return parseAlertRules(text, path);
	} catch (error) {
		if (error instanceof AlertRulesError) {
			throw new UsageError(error.message);
		}

		throw error;
	}
}
