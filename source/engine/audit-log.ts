import {createHash} from 'node:crypto';
import {appendFile, chmod, mkdir} from 'node:fs/promises';
import {homedir} from 'node:os';
import {dirname, join} from 'node:path';
import {inertJson} from '../format/sanitize.js';

export type AuditEntry = {
	readonly time: string;
	readonly mode: 'demo' | 'live';
	/** Which account (a hash of the key and service, as the history file is named): never the key. */
	readonly account?: string;
	readonly operation: string;
	readonly target: Readonly<Record<string, string>>;
	/** Size and SHA-256 of the input as sent: enough to match a request, never the input itself. */
	readonly inputBytes: number;
	readonly inputSha256: string | undefined;
	readonly outcome: 'ok' | 'refused' | 'failed' | 'may-have-happened' | 'read-only';
	readonly durationMs: number;
	readonly error?: string;
	/** A write that sends many jobs (`endpoint.load`): how many the service accepted. */
	readonly count?: number;
	/** A load's figures (counts, percentiles, cold starts), for history's timeline. */
	readonly summary?: Readonly<Record<string, unknown>>;
};

/** `$XDG_STATE_HOME/podtop/audit.jsonl`, `~/.local/state/podtop/audit.jsonl` by default. */
export function defaultAuditPath(env: NodeJS.ProcessEnv = process.env): string {
	const state = env.XDG_STATE_HOME?.startsWith('/') ? env.XDG_STATE_HOME : join(homedir(), '.local', 'state');
	return join(state, 'podtop', 'audit.jsonl');
}

export function inputDigest(input: unknown): {inputBytes: number; inputSha256: string | undefined} {
	if (input === undefined) {
		return {inputBytes: 0, inputSha256: undefined};
	}

	const text = JSON.stringify(input);
	return {inputBytes: Buffer.byteLength(text), inputSha256: createHash('sha256').update(text).digest('hex')};
}

/** Appends one JSON line per write, in a file only its owner can read. Rejects when it cannot: the caller shows why. */
export async function appendAudit(path: string, entry: AuditEntry): Promise<void> {
	await mkdir(dirname(path), {recursive: true, mode: 0o700});
	await appendFile(path, `${inertJson(entry)}\n`, {mode: 0o600});
	// A file made by something else keeps its mode on append: make it private anyway.
	await chmod(path, 0o600);
}
