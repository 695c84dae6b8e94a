import {ApiError, describeError} from '../api/errors.js';
import {sanitizeLine} from '../format/sanitize.js';
import type {LogLine, LogQuery, LogStreamState} from '../model/log-line.js';

/** A stream's state and, while it waits or after it stopped, why (sanitised) and when it tries again (epoch ms). */
export type FollowStatus = {readonly state: LogStreamState; readonly reason?: string; readonly retryAt?: number; readonly refusal?: 'auth' | 'invalid'};

/** Opens one connection (through the budget); resolves once it is open with `ended`, which settles when it closes. */
export type OpenStream = (
	query: LogQuery,
	onLine: (line: LogLine) => void,
	options: {readonly signal: AbortSignal; readonly onBytes: () => void; readonly first: boolean},
) => Promise<{readonly ended: Promise<void>}>;

export type LogFollowOptions = {
	readonly query: LogQuery;
	readonly open: OpenStream;
	readonly onLine: (line: LogLine) => void;
	readonly onStatus: (status: FollowStatus) => void;
	/**
	No bytes for this long (keep-alives included) is a stall: the connection is dropped and resumed. The
	service does not publish its keep-alive cadence; the simulator sends one every 15 s, so 45 s is three missed.
	*/
	readonly stallMs?: number;
	/** Backoff between tries: full jitter up to `firstMs` × 2^tries, at most `maxMs` (a 429's Retry-After waits longer). */
	readonly backoff?: {readonly firstMs: number; readonly maxMs: number};
	readonly random?: () => number;
	readonly now?: () => number;
};

export type LogFollow = {
	/** Stops for good (the state becomes `ended`); every timer and the connection are let go. */
	readonly stop: () => void;
	/** Settles with the last state once the follow is over: `ended` (stopped), `gone` (404) or `failed` (refused). */
	readonly done: Promise<LogStreamState>;
	/** The id of the last line passed on: where a resume starts. */
	readonly lastEventId: () => string | undefined;
};

export const defaultStallMs = 45_000;
const defaultBackoff = {firstMs: 1000, maxMs: 30_000};

/** What a refusal means for a stream: a 404 is a worker or pod that is gone; a refused key, role or query will not change by trying again. */
const terminalState = (error: unknown): LogStreamState | undefined =>
	error instanceof ApiError
		? error.kind === 'not-found'
			? 'gone'
			: error.kind === 'auth' || error.kind === 'forbidden' || error.kind === 'invalid' || error.kind === 'graphql'
				? 'failed'
				: undefined
		: 'failed';

const refusalOf = (error: unknown): FollowStatus['refusal'] =>
	error instanceof ApiError && (error.kind === 'auth' || error.kind === 'forbidden')
		? 'auth'
		: error instanceof ApiError && error.kind === 'invalid'
			? 'invalid'
			: undefined;

/** The second an event id names (`2026-06-01T12:05:04Z/000000000042`), or the whole id. */
const secondOf = (id: string) => id.split('/')[0]!;

/**
Follows one log stream for as long as asked: connects (through the caller's budgeted `open`), passes
on each line once, and after a drop, a stall (no bytes for `stallMs`) or an end the service chose,
connects again with `Last-Event-ID` set to the last line passed on, so that no line is lost or
doubled (a line whose id was already passed on in the same second is skipped too, for a service
whose ids are bare timestamps). Waits between tries with full-jitter backoff, reset by a line that
arrives; a 429's Retry-After is waited out in full. A 404 ends it as `gone`; a refused key or query as `failed`.
*/
export function followLog({
	query,
	open,
	onLine,
	onStatus,
	stallMs = defaultStallMs,
	backoff = defaultBackoff,
	random = Math.random,
	now = Date.now,
}: LogFollowOptions): LogFollow {
	const stopping = new AbortController();
	let lastId = query.lastEventId;
	let seenSecond: string | undefined;
	const seen = new Set<string>();
	let current: AbortController | undefined;
	let watchdog: NodeJS.Timeout | undefined;
	let lastBytesAt = 0;
	let stalled = false;
	let gotLine = false;
	const sawBytes = () => {
		lastBytesAt = now();
	};

	const take = (line: LogLine) => {
		if (line.id !== '') {
			const second = secondOf(line.id);
			if (second !== seenSecond) {
				seenSecond = second;
				seen.clear();
			}

			if (seen.has(line.id)) {
				return;
			}

			seen.add(line.id);
			lastId = line.id;
		}

		gotLine = true;
		onLine(line);
	};

	/** One timer per connection, re-armed for what is left of the window: bytes (200 lines a second) only move a time stamp. */
	const armWatchdog = (delay: number) => {
		watchdog = setTimeout(() => {
			const quietFor = now() - lastBytesAt;
			if (quietFor >= stallMs) {
				stalled = true;
				current?.abort();
				return;
			}

			armWatchdog(stallMs - quietFor);
		}, delay);
		watchdog.unref?.();
	};

	const sleep = async (ms: number) =>
		new Promise<void>(resolve => {
			const wake = () => {
				clearTimeout(timer);
				resolve();
			};

			const timer = setTimeout(() => {
				stopping.signal.removeEventListener('abort', wake);
				resolve();
			}, ms);
			stopping.signal.addEventListener('abort', wake, {once: true});
		});

	const run = async (): Promise<LogStreamState> => {
		let tries = 0;
		let first = true;
		onStatus({state: 'connecting'});
		while (!stopping.signal.aborted) {
			const connection = new AbortController();
			current = connection;
			stalled = false;
			gotLine = false;
			let reason: string;
			let waitAtLeast = 0;
			try {
				// eslint-disable-next-line no-await-in-loop -- one connection at a time, by design
				const {ended} = await open(lastId === undefined ? query : {...query, lastEventId: lastId}, take, {
					signal: connection.signal,
					first,
					onBytes: sawBytes,
				});
				if (stopping.signal.aborted) {
					break;
				}

				onStatus({state: 'live'});
				lastBytesAt = now();
				armWatchdog(stallMs);
				// eslint-disable-next-line no-await-in-loop
				await ended;
				reason = stalled ? `no bytes for ${Math.round(stallMs / 1000)} s` : 'the service closed the stream';
			} catch (error) {
				if (stopping.signal.aborted) {
					break;
				}

				const terminal = terminalState(error);
				if (terminal) {
					const refusal = terminal === 'failed' ? refusalOf(error) : undefined;
					onStatus({state: terminal, reason: sanitizeLine(describeError(error)), ...(refusal ? {refusal} : {})});
					return terminal;
				}

				reason = stalled ? `no bytes for ${Math.round(stallMs / 1000)} s` : sanitizeLine(describeError(error));
				waitAtLeast = error instanceof ApiError && error.kind === 'rate-limited' ? (error.retryAfterMs ?? 0) : 0;
			} finally {
				clearTimeout(watchdog);
				watchdog = undefined;
				current = undefined;
			}

			if (stopping.signal.aborted) {
				break;
			}

			first = false;
			tries = gotLine ? 0 : tries + 1;
			const delay = Math.max(waitAtLeast, random() * Math.min(backoff.maxMs, backoff.firstMs * 2 ** tries));
			onStatus({state: 'reconnecting', reason, retryAt: now() + delay});
			// eslint-disable-next-line no-await-in-loop
			await sleep(delay);
		}

		onStatus({state: 'ended'});
		return 'ended';
	};

	const done = run();
	return {
		stop() {
			stopping.abort();
			current?.abort();
		},
		done,
		lastEventId: () => lastId,
	};
}
