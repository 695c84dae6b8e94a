import {createHash, timingSafeEqual} from 'node:crypto';
import {tmpdir} from 'node:os';
import {join} from 'node:path';

/**
The agent's wire protocol, on a Unix socket, one JSON object per line each way. The client says
`hello` with its protocol version and a proof of its account (a hash of its key, never the key);
the agent answers `refused` and closes, or a `snapshot` of the account followed by the change
events of `podtop watch --jsonl` and a `tick` every second (which carries the poll sources' state).
*/
export const agentProtocolVersion = 1;

/** The agent sends a tick at least this often… */
export const agentTickMs = 1000;
/** …so a client that hears nothing for this long takes the agent for gone (hung, or its host asleep). */
export const agentSilenceMs = 3500;

/** A line longer than this is no line of the protocol: the connection is closed. */
export const maxHelloBytes = 4096;

export type AgentHello = {readonly type: 'hello'; readonly protocol: number; readonly account: string};

const digest = (...parts: readonly string[]) => createHash('sha256').update(parts.join('\0')).digest('hex');

/** What a client shows to prove it is for the agent's account: a hash of its key (the key never leaves the process). */
export function accountProof(apiKey: string): string {
	return digest('podtop agent account', apiKey);
}

/** Compares two proofs in constant time. */
export function proofMatches(expected: string, given: unknown): boolean {
	if (typeof given !== 'string' || given.length !== expected.length) {
		return false;
	}

	return timingSafeEqual(Buffer.from(expected), Buffer.from(given));
}

/** `$XDG_RUNTIME_DIR/podtop`, or a per-user folder under the temporary directory when it is unset. */
export function agentDirectory(env: NodeJS.ProcessEnv = process.env): string {
	const runtime = env.XDG_RUNTIME_DIR;
	return runtime?.startsWith('/') ? join(runtime, 'podtop') : join(tmpdir(), `podtop-${process.getuid?.() ?? 'user'}`);
}

/** Where `podtop agent --group` serves a group: one folder per group id, shared by its members. */
export function groupAgentDirectory(gid: number): string {
	return join(tmpdir(), `podtop-group-${gid}`);
}

type Service = {readonly apiUrl: string; readonly graphqlUrl: string; readonly apiKey: string};

/**
One socket per account and service: its name is a hash of both (a different hash from the
proof, so a name seen in a listing proves nothing).
*/
export function agentSocketPath(service: Service, directory = agentDirectory()): string {
	return join(directory, `agent-${digest('podtop agent socket', service.apiUrl, service.graphqlUrl, service.apiKey).slice(0, 16)}.sock`);
}

/** Where a client looks for its agent, in order: its own runtime folder, then the shared folder of each of its groups. */
export function agentSocketCandidates(service: Service, groups: readonly number[] = process.getgroups?.() ?? []): string[] {
	return [agentSocketPath(service), ...[...new Set(groups)].map(gid => agentSocketPath(service, groupAgentDirectory(gid)))];
}

/**
Splits a text stream into lines (a 10 MB snapshot comes in many chunks: each is scanned once). A
line over `maxLength` characters is reported once as `undefined`, and the caller hangs up.
*/
export function createLineSplitter(maxLength: number): (chunk: string) => Array<string | undefined> {
	let parts: string[] = [];
	let length = 0;
	return chunk => {
		const lines: Array<string | undefined> = [];
		let start = 0;
		let newline = chunk.indexOf('\n');
		while (newline !== -1) {
			parts.push(chunk.slice(start, newline));
			lines.push(parts.join(''));
			parts = [];
			length = 0;
			start = newline + 1;
			newline = chunk.indexOf('\n', start);
		}

		const rest = chunk.slice(start);
		if (rest) {
			parts.push(rest);
			length += rest.length;
		}

		if (length > maxLength) {
			parts = [];
			length = 0;
			lines.push(undefined);
		}

		return lines;
	};
}
