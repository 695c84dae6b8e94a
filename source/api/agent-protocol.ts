import {createHash} from 'node:crypto';
import {tmpdir} from 'node:os';
import {join} from 'node:path';
import type {LogLine, LogQuery, LogTarget} from '../model/log-line.js';

/**
The agent's wire protocol, on a Unix socket, one JSON object per line each way. Client and agent
first prove to each other that both hold the account's key (`agent-handshake.ts`: a challenge and
response each way, nothing replayable); the agent then answers `refused` and closes, or sends a
`snapshot` of the account followed by the change events of `podtop watch --jsonl` and a `tick`
every second (which carries the poll sources' state).

The snapshot names the agent's `features`, and a client may then send `history` requests
(answered on the same connection, between events) and `record` lines (events only it knows, for
the agent's timeline). A hello with `"feed": false` (a one-shot command that only reads history)
gets `{"type":"attached"}` instead of the snapshot, and no events or ticks.

Version 2 changed the handshake (version 1 sent a fixed hash of the key, which worked as a
password for whoever heard it): an older client and a newer agent, or the reverse, refuse each
other in the first line, and the client polls on its own.
*/
export const agentProtocolVersion = 2;

/**
What an agent may offer beyond the feed: range reads of its history, recording what clients tell it, log streams it shares,
`bills` (it reads the account's bills for its clients' `spend` requests, so they ask the service for none), the workers it
reads in its feed (`workers` events and the snapshot's `workers`), and the account's balance (`balance` events and the
snapshot's `balance`). A client ignores what it does not know, so an older client and a newer agent, or the reverse, still
attach: with an older agent a dashboard judges the waiting endpoints on /health alone, and reads the balance and bills itself.
*/
export const agentFeatures = ['history', 'record', 'logs', 'bills', 'workers', 'balance'] as const;
export type AgentFeature = (typeof agentFeatures)[number];

/**
The reads a client may ask of the agent's history: the methods of `HistoryReader`, and `spend` (an agent offering
`bills`): the account's bills for a window, as the agent reads them (its history file first, the service for the rest).
*/
export const historyMethods = ['series', 'stateAt', 'events', 'things', 'span', 'info', 'bills', 'spend'] as const;
export type HistoryMethod = (typeof historyMethods)[number];

/** A request line longer than this drops the client: no read needs more (10,000 pod ids are ~200 kB). */
export const maxRequestBytes = 1024 * 1024;
/** Requests a client may have unanswered at once; one more drops it (it floods). */
export const maxRequestsInFlight = 8;
/** An answer longer than this is refused with a sentence (ask a shorter range, a coarser step, fewer things). */
export const maxAnswerBytes = 32 * 1024 * 1024;
/** How long the agent gives its history to answer one request. */
export const historyAnswerMs = 15_000;
/** Events one `record` line may carry… */
export const maxRecordEvents = 100;
/** …and a client may forward in a minute; more drops it. */
export const maxRecordEventsPerMinute = 600;

/** An agent a client is attached to: where, what it offers, and whether it runs as this user (then it reads this user's files). */
export type AgentPeer = {readonly socketPath: string; readonly features: readonly AgentFeature[]; readonly sameUser: boolean};

const knownFeatures = new Set<string>(agentFeatures);

/** The features named in a snapshot or `attached` line (an older agent names none). */
export const featuresOf = (message: Readonly<Record<string, unknown>>): AgentFeature[] =>
	Array.isArray(message.features) ? message.features.filter((feature): feature is AgentFeature => knownFeatures.has(feature as string)) : [];

/** A client asks to read the agent's history; answered on the same connection by the `HistoryAnswer` of the same `id`. */
export type HistoryRequest = {readonly type: 'history'; readonly id: number; readonly method: HistoryMethod; readonly args: readonly unknown[]};
export type HistoryAnswer =
	{readonly type: 'history'; readonly id: number; readonly result: unknown} | {readonly type: 'history'; readonly id: number; readonly error: string};
/** Events only a client knows (its tracked jobs, its writes), for the agent's timeline: checked field by field there. */
export type RecordLine = {readonly type: 'record'; readonly events: readonly unknown[]};
/**
The agent's greeting once the client proved the account: the snapshot of the account (a feed) or
`attached` (`"feed": false`), with the protocol and what it offers (read with `featuresOf`), and
what the agent says of itself.
*/
export type AgentGreeting = Readonly<Record<string, unknown>> & {
	readonly type: 'snapshot' | 'attached';
	readonly at?: string;
	readonly protocol?: number;
	readonly features?: readonly AgentFeature[];
	/** The snapshot's account (the store's `AccountSnapshot`, checked by the client). */
	readonly account?: unknown;
};
/** Every `agentTickMs`: the agent's poll sources' state (the store's `connection`, checked field by field by the client). */
export type TickLine = {readonly type: 'tick'; readonly at: string; readonly connection: unknown};
/** A change event of `podtop watch --jsonl` (`endpoint`, `pod`, `gpu`, …), applied to the client's store by its type. */
export type ChangeLine = Readonly<Record<string, unknown>> & {readonly type: string};

/**
A client follows a log through the agent (`open`, its query as `LogQuery`: `tail`, `since` epoch ms,
`source`, `lastEventId`) and lets go of it (`close`); `id` is the client's own number for it.
*/
export type LogRequest =
	| {readonly type: 'logs'; readonly id: number; readonly op: 'open'; readonly target: LogTarget; readonly query: LogQuery}
	| {readonly type: 'logs'; readonly id: number; readonly op: 'close'};
/** A line of a followed log (`line`, a `LogLine`), or its end: `gone` (404), `failed` (refused: `refusal` says why). */
export type LogAnswer =
	| {readonly type: 'log'; readonly id: number; readonly line: LogLine}
	| {readonly type: 'log'; readonly id: number; readonly end: 'gone' | 'failed'; readonly reason?: string; readonly refusal?: 'auth' | 'invalid'};
/** Logs a client may follow through the agent at once; one more drops it (a merged view of 256 workers is far past any endpoint's limit). */
export const maxLogsPerClient = 256;

/** What a client sends once attached. */
export type ClientLine = HistoryRequest | RecordLine | LogRequest;
/** What an agent sends after its greeting: answers to history requests, ticks and change events. */
export type AgentLine = HistoryAnswer | TickLine | LogAnswer | ChangeLine;

/** An agent's line that answers a history request (the rest are ticks and change events). */
export const isHistoryAnswer = (message: AgentLine): message is HistoryAnswer => message.type === 'history';

/** One message as a line of the protocol. */
export const protocolLine = (message: ClientLine | AgentLine | AgentGreeting): string => `${JSON.stringify(message)}\n`;

const isRecord = (value: unknown): value is Record<string, unknown> => typeof value === 'object' && value !== null && !Array.isArray(value);

/** A line as a JSON object with a type, or undefined. */
function objectOf(text: string): (Record<string, unknown> & {readonly type: string}) | undefined {
	let value: unknown;
	try {
		value = JSON.parse(text);
	} catch {
		return undefined;
	}

	return isRecord(value) && typeof value.type === 'string' ? (value as Record<string, unknown> & {readonly type: string}) : undefined;
}

/**
What the agent makes of a line a client sent after the handshake: a request or record line, one
to ignore (a type this agent does not know: a newer client), or why the client is dropped (a
sentence).
*/
export function readClientLine(text: string): {readonly message: ClientLine} | {readonly ignored: true} | {readonly invalid: string} {
	const message = objectOf(text);
	if (!message) {
		return {invalid: 'a line that is not a JSON object with a type'};
	}

	if (message.type === 'history') {
		const {id, method, args} = message;
		if (!Number.isSafeInteger(id) || !historyMethods.includes(method as HistoryMethod) || !(args === undefined || Array.isArray(args))) {
			return {invalid: 'a history request without a whole-number id, a known method and a list of arguments'};
		}

		return {message: {type: 'history', id: id as number, method: method as HistoryMethod, args: (args as unknown[] | undefined) ?? []}};
	}

	if (message.type === 'record') {
		return Array.isArray(message.events) ? {message: {type: 'record', events: message.events}} : {invalid: 'a record line without a list of events'};
	}

	if (message.type === 'logs') {
		return readLogRequest(message);
	}

	return {ignored: true};
}

const isId = (value: unknown): value is string => typeof value === 'string' && value.length > 0 && value.length <= 200;

/** A target named by ids of at most 200 characters. */
function readLogTarget(value: unknown): LogTarget | undefined {
	if (!isRecord(value)) {
		return undefined;
	}

	if (value.kind === 'pod' && isId(value.podId)) {
		return {kind: 'pod', podId: value.podId};
	}

	return value.kind === 'worker' && isId(value.endpointId) && isId(value.workerId)
		? {kind: 'worker', endpointId: value.endpointId, workerId: value.workerId}
		: undefined;
}

/** A query whose every field is of its kind: `tail` 0–5,000, `since` a time, `source` one of the two, `lastEventId` at most 200 characters. */
function readLogQuery(value: unknown): LogQuery | undefined {
	if (!isRecord(value)) {
		return undefined;
	}

	const {tail, since, source, lastEventId} = value;
	if (
		!(tail === undefined || (Number.isInteger(tail) && (tail as number) >= 0 && (tail as number) <= 5000)) ||
		!(since === undefined || Number.isSafeInteger(since)) ||
		!(source === undefined || source === 'container' || source === 'system') ||
		!(lastEventId === undefined || isId(lastEventId))
	) {
		return undefined;
	}

	return {
		...(tail === undefined ? {} : {tail: tail as number}),
		...(since === undefined ? {} : {since: since as number}),
		...(source === undefined ? {} : {source}),
		...(lastEventId === undefined ? {} : {lastEventId}),
	};
}

function readLogRequest(message: Record<string, unknown>): {readonly message: LogRequest} | {readonly invalid: string} {
	const {id, op} = message;
	if (!Number.isSafeInteger(id)) {
		return {invalid: 'a logs line without a whole-number id'};
	}

	if (op === 'close') {
		return {message: {type: 'logs', id: id as number, op}};
	}

	const target = readLogTarget(message.target);
	const query = readLogQuery(message.query);
	return op === 'open' && target && query
		? {message: {type: 'logs', id: id as number, op, target, query}}
		: {invalid: 'a logs line without an op, a pod or worker and a query of known fields'};
}

/** A log line the agent passed on, checked field by field (its text is sanitised on every way out, as a line from the service is). */
export function readLogLine(value: unknown): LogLine | undefined {
	if (!isRecord(value)) {
		return undefined;
	}

	const {id, ts, source, line, raw, truncated} = value;
	return typeof id === 'string' && Number.isFinite(ts) && (source === 'container' || source === 'system') && typeof line === 'string'
		? {id, ts: ts as number, source, line, ...(raw === true ? {raw} : {}), ...(truncated === true ? {truncated} : {})}
		: undefined;
}

/**
What a client makes of a line the agent sent after its greeting: an answer, a tick or a change
event, or why the client leaves (a sentence). An answer names its request's id and either an
error (a sentence) or a result.
*/
export function readAgentLine(text: string): {readonly message: AgentLine} | {readonly invalid: string} {
	const message = objectOf(text);
	if (!message) {
		return {invalid: 'sent a line that is not a JSON object with a type'};
	}

	if (message.type === 'history') {
		const {id, error} = message;
		if (!Number.isSafeInteger(id) || !(typeof error === 'string' || (error === undefined && 'result' in message))) {
			return {invalid: 'sent a history answer without a whole-number id and a result or an error'};
		}

		return {message: typeof error === 'string' ? {type: 'history', id: id as number, error} : {type: 'history', id: id as number, result: message.result}};
	}

	if (message.type === 'tick' && typeof message.at !== 'string') {
		return {invalid: 'sent a tick without its time'};
	}

	return {message};
}

/** A greeting off the wire (the line after the proof), or undefined when the line is none. */
export const readGreeting = (message: Readonly<Record<string, unknown>> | undefined): AgentGreeting | undefined =>
	message?.type === 'snapshot' || message?.type === 'attached' ? (message as AgentGreeting) : undefined;

/** The agent sends a tick at least this often… */
export const agentTickMs = 1000;
/** …so a client that hears nothing for this long takes the agent for gone (hung, or its host asleep). */
export const agentSilenceMs = 3500;

/** A handshake line longer than this is no line of the protocol: the connection is closed (either way). */
export const maxHelloBytes = 4096;

/**
The longest line a client reads from an agent that has proven it holds the key: an answer of at
most `maxAnswerBytes`, or a snapshot (~10 MB at 10,000 pods), with room. Longer ends the
connection with a sentence; before the proof, `maxHelloBytes` holds.
*/
export const maxAgentLineLength = 48 * 1024 * 1024;

const digest = (...parts: readonly string[]) => createHash('sha256').update(parts.join('\0')).digest('hex');

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
line over `maxLength` characters is reported once as `undefined`, and the caller hangs up. A
function is asked at each chunk (a client allows longer lines once the agent proved itself).
*/
export function createLineSplitter(limit: number | (() => number)): (chunk: string) => Array<string | undefined> {
	let parts: string[] = [];
	let length = 0;
	return chunk => {
		const maxLength = typeof limit === 'number' ? limit : limit();
		const lines: Array<string | undefined> = [];
		let start = 0;
		let newline = chunk.indexOf('\n');
		while (newline !== -1) {
			parts.push(chunk.slice(start, newline));
			// A whole line can come in one chunk: it is measured too.
			lines.push(length + newline - start > maxLength ? undefined : parts.join(''));
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
