import {describeError} from '../api/errors.js';
import {sanitizeLine} from '../format/sanitize.js';
import type {LogLine, LogQuery, LogSource, LogTarget} from '../model/log-line.js';
import type {LogSession, LogSnapshot, LogSubject, SessionLine, StreamStatus} from '../model/log-session.js';
import type {WorkerList} from '../model/worker.js';
import {LineRing} from './line-ring.js';
import {followLog, type FollowStatus, type LogFollow, type LogFollowOptions, type OpenStream} from './log-follow.js';
import type {Priority} from './scheduler.js';

/** Lines a session keeps: 10,000 lines of up to 16 kB are at most ~320 MB in the worst case, ~2 MB for lines of 100 characters. */
export const logBufferLines = 10_000;
/** Listeners hear of new lines at most this often: one frame at 30 frames a second. */
export const notifyEveryMs = 33;
/** A merged view reads its endpoint's worker list this often, for workers that join (4 requests a minute on v2's budget). */
export const workerListEveryMs = 15_000;

export type LogSessionOptions = {
	readonly subject: LogSubject;
	readonly query: LogQuery;
	/** One connection through the budget (the scheduled API's `logStream`). */
	readonly logStream: (
		target: LogTarget,
		query: LogQuery,
		onLine: (line: LogLine) => void,
		options: {readonly signal: AbortSignal; readonly onBytes?: () => void},
		priority: Priority,
	) => Promise<{readonly ended: Promise<void>}>;
	/** The endpoint's active workers (undefined: the endpoint is gone), for a merged view. */
	readonly workers: (endpointId: string) => Promise<WorkerList | undefined>;
	/** The last lines the agent kept of a gone worker (the history file), shown when the service answers 404 for a worker it no longer lists. */
	readonly kept?: (endpointId: string, workerId: string) => Promise<readonly LogLine[] | undefined>;
	/**
	Whether the streams are connected at the background priority, asked at each connect: the agent's own
	follows are, so a user's `l` gets a stream first (and they wait their turn when the budget is tight). Else a
	user's: the first connect at `action`, reconnects at `visible`.
	*/
	readonly background?: () => boolean;
	readonly capacity?: number;
	readonly listEveryMs?: number;
	readonly follow?: Pick<LogFollowOptions, 'stallMs' | 'backoff' | 'random'>;
};

/** `generation` tells the follow now running from one stopped by `setSource`, whose last word (ended) is not this stream's. */
type Stream = {readonly target: LogTarget; follow: LogFollow; status: FollowStatus; generation: number};

const originOf = (target: LogTarget) => (target.kind === 'pod' ? target.podId : target.workerId);

/**
A followed log: one stream for a pod or a worker, or one per worker of an endpoint (merged, as stern
does), workers joining as the worker list shows them (read every `listEveryMs`); a stream that ended
keeps its state (gone, failed) in the snapshot. Lines go into one ring of `capacity` lines, the oldest
dropped and counted; listeners are told at most once per `notifyEveryMs`. `close` stops every stream and timer.
*/
export function openLogSession({
	subject,
	query,
	logStream,
	workers,
	kept,
	background = () => false,
	capacity = logBufferLines,
	listEveryMs = workerListEveryMs,
	follow: followOptions = {},
}: LogSessionOptions): LogSession {
	const ring = new LineRing<SessionLine>(capacity);
	const streams = new Map<string, Stream>();
	const listeners = new Set<() => void>();
	let currentQuery = query;
	let seq = 0;
	let closed = false;
	let cached: LogSnapshot | undefined;
	let notifyTimer: NodeJS.Timeout | undefined;
	let listTimer: NodeJS.Timeout | undefined;
	let listStatus: StreamStatus | undefined;
	/** A merged view read its first worker list: workers listed later join. */
	let listed = false;

	const changed = () => {
		cached = undefined;
		if (notifyTimer || closed) {
			return;
		}

		notifyTimer = setTimeout(() => {
			notifyTimer = undefined;
			for (const listener of listeners) {
				listener();
			}
		}, notifyEveryMs);
	};

	/** Podtop's own line in a merged view (a worker joined or left), in the buffer among the workers' lines. */
	const note = (origin: string, text: string) => {
		ring.push({id: '', ts: Date.now(), source: 'system', line: sanitizeLine(text), origin, seq: ++seq, note: true});
		changed();
	};

	const start = (stream: Omit<Stream, 'follow'>, streamQuery: LogQuery): LogFollow => {
		const origin = originOf(stream.target);
		const generation = ++stream.generation;
		const open: OpenStream = async (resumeQuery, onLine, {signal, onBytes, first}) =>
			logStream(stream.target, resumeQuery, onLine, {signal, onBytes}, background() ? 'background' : first ? 'action' : 'visible');
		return followLog({
			...followOptions,
			query: streamQuery,
			open,
			onLine(line) {
				ring.push({...line, origin, seq: ++seq});
				changed();
			},
			onStatus(status) {
				if (stream.generation !== generation) {
					return;
				}

				const {target} = stream;
				if (status.state === 'gone' && stream.status.state !== 'gone' && subject.kind === 'endpoint') {
					// A merged view says so where it happened, after the worker's last line (which all stay).
					note(origin, `worker ${origin} left (gone${status.reason ? `: ${status.reason}` : ''})`);
				}

				if (status.state === 'gone' && target.kind === 'worker' && subject.kind === 'worker' && kept && !ring.toArray().some(line => line.origin === origin)) {
					// Said gone once what the agent kept of it is in the buffer (a backlog read waits for every stream to settle).
					void showKept(target, kept, status).then(shown => {
						if (stream.generation === generation && !closed) {
							stream.status = shown;
							changed();
						}
					});
					return;
				}

				stream.status = status;
				changed();
			},
		});
	};

	/** A gone worker's kept lines into the buffer; its status says they are what the agent kept. */
	const showKept = async (
		target: Extract<LogTarget, {kind: 'worker'}>,
		read: NonNullable<LogSessionOptions['kept']>,
		status: FollowStatus,
	): Promise<FollowStatus> => {
		let lines: readonly LogLine[] | undefined;
		try {
			lines = await read(target.endpointId, target.workerId);
		} catch {
			return status;
		}

		// As the service would have answered the query: the source asked for, the lines since its time, its tail.
		const {source, since, tail} = currentQuery;
		const matching = (lines ?? []).filter(line => (source === undefined || line.source === source) && (since === undefined || line.ts >= since));
		const shown = tail === undefined ? matching : tail === 0 ? [] : matching.slice(-tail);
		if (closed || shown.length === 0) {
			return status;
		}

		for (const line of shown) {
			ring.push({...line, origin: target.workerId, seq: ++seq});
		}

		const count = shown.length === 1 ? 'the line before is' : `the ${shown.length} lines before are`;
		return {...status, reason: `${status.reason ?? 'gone'}; ${count} the last the agent kept of it (from the history file)`};
	};

	/** Follows a stream not followed yet; true when it does. */
	const add = (target: LogTarget): boolean => {
		const origin = originOf(target);
		if (streams.has(origin) || closed) {
			return false;
		}

		const stream: Omit<Stream, 'follow'> & {follow?: LogFollow} = {target, status: {state: 'connecting'}, generation: 0};
		stream.follow = start(stream, currentQuery);
		streams.set(origin, stream as Stream);
		return true;
	};

	const readWorkers = async (endpointId: string) => {
		try {
			const list = await workers(endpointId);
			if (closed) {
				return;
			}

			if (!list) {
				listStatus = {origin: endpointId, state: 'gone', reason: `endpoint ${sanitizeLine(endpointId)} is gone`};
				changed();
				return;
			}

			const joining = listed;
			listed = true;
			listStatus = undefined;
			for (const worker of list.workers) {
				// Those there when the view opened are its start; a later one joins (one the view had, gone or not, never again).
				if (add({kind: 'worker', endpointId, workerId: worker.id}) && joining) {
					note(worker.id, `worker ${worker.id} joined`);
				}
			}

			changed();
		} catch (error) {
			if (!closed) {
				listStatus = {origin: endpointId, state: 'reconnecting', reason: sanitizeLine(describeError(error))};
				changed();
			}
		}

		if (!closed && listStatus?.state !== 'gone') {
			listTimer = setTimeout(() => {
				void readWorkers(endpointId);
			}, listEveryMs);
		}
	};

	switch (subject.kind) {
		case 'pod': {
			add({kind: 'pod', podId: subject.podId});
			break;
		}

		case 'worker': {
			add({kind: 'worker', endpointId: subject.endpointId, workerId: subject.workerId});
			break;
		}

		default: {
			listStatus = {origin: subject.endpointId, state: 'connecting', reason: 'reading the worker list'};
			void readWorkers(subject.endpointId);
		}
	}

	return {
		subject,
		subscribe(listener) {
			listeners.add(listener);
			return () => {
				listeners.delete(listener);
			};
		},
		snapshot() {
			cached ??= {
				lines: ring.toArray(),
				dropped: ring.dropped,
				capacity,
				streams: [...[...streams].map(([origin, {status}]): StreamStatus => ({origin, ...status})), ...(listStatus && streams.size === 0 ? [listStatus] : [])],
				query: currentQuery,
			};
			return cached;
		},
		setSource(source: LogSource | undefined) {
			if (closed || source === currentQuery.source) {
				return;
			}

			const {source: _previous, ...rest} = currentQuery;
			currentQuery = source === undefined ? rest : {...rest, source};
			for (const stream of streams.values()) {
				// Still running: resume after the last line passed on, in the new source (no line twice).
				if (stream.status.state !== 'gone' && stream.status.state !== 'failed') {
					const lastEventId = stream.follow.lastEventId();
					stream.follow.stop();
					stream.status = {state: 'connecting'};
					stream.follow = start(stream, lastEventId === undefined ? currentQuery : {...currentQuery, lastEventId});
				}
			}

			changed();
		},
		close() {
			if (closed) {
				return;
			}

			for (const stream of streams.values()) {
				stream.follow.stop();
			}

			closed = true;
			clearTimeout(notifyTimer);
			clearTimeout(listTimer);
			notifyTimer = undefined;
			listTimer = undefined;
			cached = undefined;
			listeners.clear();
		},
	};
}
