import type {Socket} from 'node:net';
import {
	maxLogsPerClient,
	maxRecordEventsPerMinute,
	maxRequestBytes,
	maxRequestsInFlight,
	protocolLine,
	readClientLine,
	type AgentFeature,
	type HistoryRequest,
	type LogRequest,
	type RecordLine,
} from '../api/agent-protocol.js';
import {acceptForwardedEvents} from '../history/forwarded-events.js';
import type {EventRow} from '../history/changes.js';
import type {HistoryReader} from '../history/history-types.js';
import {answerHistory} from './agent-history.js';
import type {AgentSpend} from './agent-spend.js';
import type {LogDelivery, LogHub} from './log-hub.js';

/** What the agent's history offers its clients. */
export type AgentHistory = {
	/** Undefined while there is nothing to read. */
	readonly reader: () => HistoryReader | undefined;
	/** Records events a client forwarded (checked already) in the timeline. */
	readonly record: (events: readonly EventRow[]) => void;
	/** What it offers now: `history` unless it is off (a folder that cannot be used), `record` while it keeps a file, `bills` with `spend`. */
	readonly features: () => AgentFeature[];
	/** The account's bills read for clients (`spend` requests); without it, those are answered with an error. */
	readonly spend?: AgentSpend;
};

export type Client = {
	readonly socket: Socket;
	readonly name: string;
	/** Sent the snapshot, events and ticks (false: a connection for history requests only). */
	readonly feed: boolean;
	/** Since when its output has waited to drain, with no slice of it read by the client. */
	pendingSince?: number;
	/** What it had read when last looked at (`handedOver`). */
	handed?: number;
	/** Logs it follows through the agent now (it is sent ticks while it follows any, so it knows the agent lives). */
	following?: number;
};

export type ClientLines = {
	/** Takes one line the client sent (undefined: one over the size limit); false once the client is dropped for it. */
	readonly take: (text: string | undefined) => boolean;
	readonly close: () => void;
};

type Options = {
	readonly client: Client;
	readonly history: AgentHistory | undefined;
	readonly send: (client: Client, text: string) => void;
	readonly drop: (client: Client, why: string) => void;
	readonly log: (line: string) => void;
	readonly nextTurn: Turns;
	/** The agent's shared log streams; without it, `logs` lines are ignored (the feature is not offered). */
	readonly logs?: LogHub;
};

export type Turns = <T>(work: () => Promise<T>) => Promise<T>;

/**
One read at a time for every client of an agent: the file is read by calls that block (libsql), so
requests run one after another with the event loop free between them (polls and ticks go on).
*/
export function createTurns(): Turns {
	let turn: Promise<unknown> = Promise.resolve();
	return async work => {
		const mine = turn
			.then(
				async () =>
					new Promise<void>(resolve => {
						setImmediate(resolve);
					}),
			)
			.then(work);
		turn = mine.catch(() => undefined);
		return mine;
	};
}

/**
What an attached client may send after its hello: `history` requests (answered on its connection
by the agent's own reader) and `record` lines (events only it knows, for the timeline). A line
that is not JSON, too long, a request without an id or method, or more requests unanswered than
allowed, or more events a minute than allowed, drops that client and nobody else. Lines of a type
this agent does not know are ignored (a newer client).
*/
export function createClientLines({client, history, send, drop, log, nextTurn, logs}: Options): ClientLines {
	const followed = new Map<number, () => void>();
	let inFlight = 0;
	let minute = 0;
	let forwarded = 0;
	let refusedSaid = false;
	let closed = false;

	const request = ({id, method, args}: HistoryRequest): boolean => {
		if (inFlight >= maxRequestsInFlight) {
			drop(client, `more than ${maxRequestsInFlight} history requests unanswered at once`);
			return false;
		}

		inFlight++;
		// The bills wait on the service, not the file: out of the file's turns (a slow answer would hold every client's chart).
		const answer =
			method === 'spend'
				? (history?.spend?.answer(id, args) ?? answerHistory(undefined, id, method, args))
				: nextTurn(async () => (closed ? undefined : answerHistory(history?.reader(), id, method, args)));
		void answer
			.then(text => {
				if (text !== undefined && !closed) {
					send(client, text);
				}
			})
			.finally(() => {
				inFlight--;
			});
		return true;
	};

	const record = (message: RecordLine): boolean => {
		const now = Date.now();
		if (Math.floor(now / 60_000) !== minute) {
			minute = Math.floor(now / 60_000);
			forwarded = 0;
		}

		forwarded += message.events.length;
		if (forwarded > maxRecordEventsPerMinute) {
			drop(client, `more than ${maxRecordEventsPerMinute} events forwarded in a minute`);
			return false;
		}

		const {events, refused} = acceptForwardedEvents(message.events, now);
		if (refused > 0 && !refusedSaid) {
			refusedSaid = true;
			log(
				`${client.name} forwarded ${refused} event${refused === 1 ? '' : 's'} the timeline does not take (not a job or write, out of time, or malformed): left out`,
			);
		}

		if (events.length > 0 && history?.features().includes('record')) {
			history.record(events);
		}

		return true;
	};

	const deliver = (id: number, delivery: LogDelivery) => {
		if (closed) {
			return;
		}

		if ('lines' in delivery) {
			send(client, delivery.lines.map(line => `{"type":"log","id":${id},"line":${line}}\n`).join(''));
			return;
		}

		// The stream is over: the hub let go of this follower.
		followed.delete(id);
		client.following = followed.size;
		send(client, protocolLine({type: 'log', id, ...delivery}));
	};

	const follow = (message: LogRequest): boolean => {
		if (!logs) {
			return true;
		}

		followed.get(message.id)?.();
		followed.delete(message.id);
		if (message.op === 'open') {
			if (followed.size >= maxLogsPerClient) {
				drop(client, `more than ${maxLogsPerClient} logs followed at once`);
				return false;
			}

			const {id} = message;
			followed.set(
				id,
				logs.follow(message.target, message.query, delivery => {
					deliver(id, delivery);
				}),
			);
		}

		client.following = followed.size;
		return true;
	};

	return {
		take(text) {
			if (text === undefined) {
				drop(client, `a line over ${maxRequestBytes / 1024} KB`);
				return false;
			}

			if (text.trim() === '') {
				return true;
			}

			const read = readClientLine(text);
			if ('invalid' in read) {
				drop(client, read.invalid);
				return false;
			}

			if ('ignored' in read) {
				return true;
			}

			const {message} = read;
			return message.type === 'history' ? request(message) : message.type === 'logs' ? follow(message) : record(message);
		},
		close() {
			closed = true;
			for (const unfollow of followed.values()) {
				unfollow();
			}

			followed.clear();
			client.following = 0;
		},
	};
}
