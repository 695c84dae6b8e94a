import type {KeptLogs} from '../history/kept-logs.js';
import type {LogLine, LogQuery, LogSource, LogTarget} from '../model/log-line.js';
import type {LogSession, LogSubject, SessionLine} from '../model/log-session.js';
import {sanitizeLine} from '../format/sanitize.js';

/** The service's own backlog when a query names neither `tail` nor `since`. */
const serviceTail = 100;
/** Lines kept of a worker whose stream the service ended as gone (the service keeps the logs of active workers only)… */
export const goneWorkerLines = 200;
/** …for this many such workers per endpoint, the oldest forgotten first (in memory: ~50 × 200 lines of at most 16 kB; in the history file too, when the agent records it). */
export const goneWorkersPerEndpoint = 50;

/** How a followed log ends: `gone` (404), `failed` (refused). */
export type LogEnd = {readonly end: 'gone' | 'failed'; readonly reason?: string; readonly refusal?: 'auth' | 'invalid'};

/** What a follower is sent: its lines, each as the JSON of a `LogLine` (made once for all followers), or the stream's end. */
export type LogDelivery = {readonly lines: readonly string[]} | LogEnd;

export type LogHub = {
	/**
	One client's one open log: `send` gets its lines and end; the function returned lets go of it.
	`background`: the agent's own follow, whose stream connects after a user's (a stream a user follows too connects as a user's).
	*/
	readonly follow: (target: LogTarget, query: LogQuery, send: (delivery: LogDelivery) => void, options?: {readonly background?: boolean}) => () => void;
	/** The workers of an endpoint whose last lines the hub kept after the service let them go (in the file, then in memory), oldest first. */
	readonly goneWorkers: (endpointId: string) => readonly string[];
	/** Upstream streams open now. */
	readonly upstreamCount: () => number;
	readonly close: () => void;
};

/** A line as the hub holds it: enough to choose a backlog, and its JSON. */
type HeldLine = {readonly id: string; readonly ts: number; readonly source: LogSource; readonly json: string; readonly line: LogLine};

/** `kept`: how many lines the agent kept of a gone worker this follower was sent first (its end says so). */
type Follower = {readonly send: (delivery: LogDelivery) => void; lastSeq: number; readonly kept: number};

type Options = {
	/** Where kept lines outlive the agent (the history file it records into); undefined while it records none. */
	readonly keptLogs?: () => KeptLogs | undefined;
	/** One line for the agent's log (a kept worker's lines that could not be written). */
	readonly log?: (line: string) => void;
	readonly now?: () => number;
};

/** The end a follower that was sent kept lines hears: the service's 404, and that what it got is what the agent kept. */
const keptEnd = (end: LogEnd, kept: number): LogEnd =>
	end.end === 'gone' && kept > 0
		? {
				...end,
				reason: `${end.reason ?? 'gone'}; the ${kept === 1 ? 'line' : `${kept} lines`} before ${kept === 1 ? 'is' : 'are'} the last the agent kept of it`,
			}
		: end;
/** `users`: its followers that are not the agent's own (while none is, it connects at the background priority). */
type Upstream = {readonly session: LogSession; readonly followers: Set<Follower>; readonly users: {count: number}; readonly stop: () => void};

const keyOf = (target: LogTarget, source: LogSource | undefined) =>
	`${target.kind === 'pod' ? `pod\0${target.podId}` : `worker\0${target.endpointId}\0${target.workerId}`}\0${source ?? 'both'}`;

/** The lines of the buffer a new follower starts with: after its `lastEventId`, since its time, or its tail. */
function backlogFor<Line extends {readonly id: string; readonly ts: number}>(lines: readonly Line[], query: LogQuery): readonly Line[] {
	const {lastEventId, since, tail} = query;
	if (lastEventId !== undefined) {
		// Event ids sort as they come (an RFC 3339 second, then a zero-padded count): the lines after the last one it has.
		return lines.filter(line => line.id > lastEventId);
	}

	if (since !== undefined) {
		const second = Math.floor(since / 1000) * 1000;
		return lines.filter(line => line.ts >= second);
	}

	const count = tail ?? serviceTail;
	return count === 0 ? [] : lines.slice(-count);
}

/** The lines after `seq` (the buffer is in order of seq). */
function linesAfter(lines: readonly SessionLine[], seq: number): readonly SessionLine[] {
	let start = lines.length;
	while (start > 0 && lines[start - 1]!.seq > seq) {
		start--;
	}

	return lines.slice(start);
}

/**
The agent's log streams, shared: one upstream session per (worker or pod, source) however many
clients follow it, opened with the first follower's query and closed when the last lets go. A
later follower starts from the session's buffer (its `tail`, `since` or `lastEventId` read there:
at most the lines the agent saw), then gets each new line with its event id, serialised once for
all. A stream that ends (gone, refused) says so to every follower and is let go. The last
`goneWorkerLines` of a worker whose stream ended as gone are kept (its crash is in them): a later
follower of that worker gets them before the end, told so; with `keptLogs` they are written to
the history file too, and read from it for a worker the agent no longer holds (it was restarted).
*/
export function createLogHub(
	openLogs: (subject: LogSubject, query: LogQuery, options?: {readonly background?: () => boolean}) => LogSession,
	{keptLogs = () => undefined, log = () => undefined, now = Date.now}: Options = {},
): LogHub {
	const upstreams = new Map<string, Upstream>();
	/** Endpoint id → worker id → its last lines, in the order the workers went. */
	const gone = new Map<string, Map<string, readonly HeldLine[]>>();
	const serialised = new WeakMap<SessionLine, string>();
	const jsonOf = (line: SessionLine) => {
		let json = serialised.get(line);
		if (json === undefined) {
			const {origin: _origin, seq: _seq, ...logLine} = line;
			json = JSON.stringify(logLine);
			serialised.set(line, json);
		}

		return json;
	};

	const keep = (endpointId: string, workerId: string, lines: readonly SessionLine[]) => {
		const workers = gone.get(endpointId) ?? new Map<string, readonly HeldLine[]>();
		gone.set(endpointId, workers);
		const held = [...(workers.get(workerId) ?? []), ...lines.map(line => ({id: line.id, ts: line.ts, source: line.source, json: jsonOf(line), line}))];
		// Two sources' streams of one worker: one list in order of id, each line once.
		const unique = [...new Map(held.map(line => [`${line.source}\0${line.id}`, line])).values()].toSorted((a, b) => (a.id < b.id ? -1 : a.id > b.id ? 1 : 0));
		const last = unique.slice(-goneWorkerLines);
		workers.delete(workerId);
		workers.set(workerId, last);
		for (const oldest of workers.keys()) {
			if (workers.size <= goneWorkersPerEndpoint) {
				break;
			}

			workers.delete(oldest);
		}

		try {
			keptLogs()?.keep(
				endpointId,
				workerId,
				last.map(({line}) => {
					const {origin: _origin, seq: _seq, ...logLine} = line as SessionLine;
					return logLine;
				}),
				now(),
			);
		} catch (error) {
			// A full disk, a file being set aside: the lines stay in memory, and polling goes on.
			log(`the last lines of gone worker ${sanitizeLine(workerId)} were not written to the history file (${sanitizeLine(String(error))})`);
		}
	};

	/** What the agent kept of a gone worker: in memory, or in the file (kept before the agent last started). */
	const keptOf = (endpointId: string, workerId: string): readonly HeldLine[] | undefined => {
		const held = gone.get(endpointId)?.get(workerId);
		if (held) {
			return held;
		}

		try {
			return keptLogs()
				?.read(endpointId, workerId)
				?.map(line => ({id: line.id, ts: line.ts, source: line.source, json: JSON.stringify(line), line}));
		} catch {
			return undefined;
		}
	};

	const open = (key: string, target: LogTarget, query: LogQuery, background: boolean): Upstream => {
		// The session connects as soon as it is opened: its first follower is counted before.
		const users = {count: background ? 0 : 1};
		const session = openLogs(target, query, {background: () => users.count === 0});
		const followers = new Set<Follower>();
		const upstream: Upstream = {
			session,
			followers,
			users,
			stop() {
				unsubscribe();
				session.close();
				if (upstreams.get(key) === upstream) {
					upstreams.delete(key);
				}
			},
		};
		const unsubscribe = session.subscribe(() => {
			const {lines, streams} = session.snapshot();
			for (const follower of followers) {
				const fresh = linesAfter(lines, follower.lastSeq);
				if (fresh.length > 0) {
					follower.lastSeq = fresh.at(-1)!.seq;
					follower.send({lines: fresh.map(line => jsonOf(line))});
				}
			}

			const ended = streams.find(stream => stream.state === 'gone' || stream.state === 'failed');
			if (ended?.state === 'gone' && target.kind === 'worker' && lines.length > 0) {
				keep(target.endpointId, target.workerId, lines);
			}

			if (ended) {
				const end: LogEnd = {
					end: ended.state as LogEnd['end'],
					...(ended.reason ? {reason: ended.reason} : {}),
					...(ended.refusal ? {refusal: ended.refusal} : {}),
				};
				for (const follower of followers) {
					follower.send(keptEnd(end, follower.kept));
				}

				followers.clear();
				upstream.stop();
			}
		});
		upstreams.set(key, upstream);
		return upstream;
	};

	return {
		follow(target, query, send, {background = false} = {}) {
			const key = keyOf(target, query.source);
			const kept = target.kind === 'worker' ? keptOf(target.endpointId, target.workerId) : undefined;
			const keptLines = kept
				? backlogFor(
						kept.filter(line => query.source === undefined || line.source === query.source),
						query,
					)
				: [];
			if (keptLines.length > 0) {
				// A worker the service no longer has: what the agent kept of it, then the service's 404 as the end.
				send({lines: keptLines.map(line => line.json)});
			}

			const existing = upstreams.get(key);
			const upstream = existing ?? open(key, target, query, background);
			if (existing && !background) {
				existing.users.count++;
			}

			const {lines} = upstream.session.snapshot();
			const follower: Follower = {send, lastSeq: lines.at(-1)?.seq ?? 0, kept: keptLines.length};
			const backlog = backlogFor(lines, query);
			if (backlog.length > 0) {
				send({lines: backlog.map(line => jsonOf(line))});
			}

			upstream.followers.add(follower);
			return () => {
				if (upstream.followers.delete(follower) && !background) {
					upstream.users.count--;
				}

				if (upstream.followers.size === 0) {
					upstream.stop();
				}
			};
		},
		upstreamCount: () => upstreams.size,
		goneWorkers(endpointId) {
			let inFile: readonly string[] = [];
			try {
				inFile = keptLogs()?.workers(endpointId) ?? [];
			} catch {}

			return [...new Set([...inFile, ...(gone.get(endpointId)?.keys() ?? [])])];
		},
		close() {
			for (const upstream of upstreams.values()) {
				upstream.followers.clear();
				upstream.stop();
			}
		},
	};
}
