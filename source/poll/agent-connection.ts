import {createConnection, type Socket} from 'node:net';
import {createClientHandshake} from '../api/agent-handshake.js';
import {
	createLineSplitter,
	featuresOf,
	isHistoryAnswer,
	maxAgentLineLength,
	protocolLine,
	readAgentLine,
	readLogLine,
	type AgentFeature,
	type LogAnswer,
	type ClientLine,
	type HistoryMethod,
} from '../api/agent-protocol.js';
import {AgentRequestError, createAgentRequests} from '../api/agent-requests.js';
import {ApiError} from '../api/errors.js';
import type {LogLine, LogQuery, LogTarget} from '../model/log-line.js';

export type AgentConnection = {
	readonly socketPath: string;
	/** A history request: connects first if need be (a hello without the feed), then asks. */
	readonly request: (method: HistoryMethod, args: readonly unknown[], timeoutMs: number) => Promise<unknown>;
	/** Sends one line (a `record` line) once connected to an agent that offers `feature`; false when none took it. */
	readonly send: (message: ClientLine, feature: AgentFeature) => Promise<boolean>;
	/**
	Follows a log through the agent (it holds one stream per log for all its clients): resolves as the
	service's `logStream` does, with `ended` that settles when the agent's connection closes (resolved: a
	drop, resumed by the caller with `Last-Event-ID`) or the log ends (rejected: gone, refused); undefined
	when no agent that shares logs answers.
	*/
	readonly openLog: (
		target: LogTarget,
		query: LogQuery,
		onLine: (line: LogLine) => void,
		options: {readonly signal: AbortSignal; readonly onBytes?: () => void},
	) => Promise<{readonly ended: Promise<void>} | undefined>;
	readonly close: () => void;
};

type Following = {readonly onLine: (line: LogLine) => void; readonly onBytes?: () => void; readonly finish: (error?: Error) => void};

/** The error a log's end is to its follower: a 404 is gone, a refusal says whose. */
const endError = (answer: Extract<LogAnswer, {end: string}>): Error =>
	answer.end === 'gone'
		? new ApiError('not-found', answer.reason ?? 'gone')
		: answer.refusal
			? new ApiError(answer.refusal, answer.reason ?? 'refused')
			: new Error(answer.reason ?? 'the stream failed');

type Options = {
	readonly socketPath: string;
	/** `agentSecret(key)` for the handshake: never sent. */
	readonly secret: string;
	/** How long the agent may take to answer the hello, to take a line, and to let go when closed. */
	readonly answerMs?: number;
};

/**
A connection of its own to an agent, for a process that is not fed by it (`podtop history`, a
write verb): a hello with `"feed": false`, so the agent sends no snapshot, events or ticks, only
answers. Opened at the first request, kept for the next ones, opened again if the agent closed it.
*/
export function createAgentConnection({socketPath, secret, answerMs = 3000}: Options): AgentConnection {
	let socket: Socket | undefined;
	let ready: Promise<readonly AgentFeature[]> | undefined;
	const following = new Map<number, Following>();
	let nextLogId = 0;
	const finishAll = () => {
		for (const follow of following.values()) {
			follow.finish();
		}

		following.clear();
	};

	/** A line for a followed log, or any line at all (the agent lives: its ticks count as the stream's bytes). */
	const heard = (message: Readonly<Record<string, unknown>>) => {
		for (const follow of following.values()) {
			follow.onBytes?.();
		}

		if (message.type !== 'log' || typeof message.id !== 'number') {
			return;
		}

		const follow = following.get(message.id);
		if (!follow) {
			return;
		}

		if (message.end === 'gone' || message.end === 'failed') {
			following.delete(message.id);
			follow.finish(endError(message as Extract<LogAnswer, {end: string}>));
			return;
		}

		const line = readLogLine(message.line);
		if (line) {
			follow.onLine(line);
		}
	};

	const describe = () => `the agent on ${socketPath}`;
	const requests = createAgentRequests(line => {
		if (!socket || socket.destroyed) {
			return false;
		}

		socket.write(line);
		return true;
	}, describe);

	const connect = async () =>
		new Promise<readonly AgentFeature[]>((resolve, reject) => {
			const handshake = createClientHandshake(secret, {feed: false});
			const split = createLineSplitter(handshake.maxLineLength);
			const current = createConnection(socketPath);
			socket = current;
			let greeted = false;
			const fail = (reason: string) => {
				clearTimeout(timer);
				current.destroy();
				reject(new AgentRequestError(`${describe()} ${reason}`));
			};

			const timer = setTimeout(() => {
				fail(`did not answer within ${Math.round(answerMs / 1000)} s`);
			}, answerMs);
			current.setEncoding('utf8');
			current.on('connect', () => {
				current.write(handshake.hello);
			});
			current.on('data', (chunk: string) => {
				for (const line of split(chunk)) {
					if (greeted) {
						// Answers only (no feed): anything else of the protocol is not for this connection.
						const read = line === undefined ? {invalid: `sent a line over ${maxAgentLineLength / 1024 / 1024} MB`} : readAgentLine(line);
						if ('invalid' in read) {
							current.destroy();
							requests.failAll(read.invalid);
							return;
						}

						if (isHistoryAnswer(read.message)) {
							requests.answer(read.message);
						} else {
							heard(read.message);
						}

						continue;
					}

					const step = handshake.take(line);
					if ('failure' in step) {
						fail(step.failure);
						return;
					}

					if ('answer' in step) {
						current.write(step.answer);
						continue;
					}

					greeted = true;
					clearTimeout(timer);
					resolve(featuresOf(step.greeting));
				}
			});
			current.on('error', (error: NodeJS.ErrnoException) => {
				fail(`cannot be reached (${error.code ?? error.message})`);
			});
			current.on('close', () => {
				clearTimeout(timer);
				if (!greeted) {
					reject(new AgentRequestError(`${describe()} closed the connection before it answered`));
				}

				if (socket === current) {
					socket = undefined;
					ready = undefined;
				}

				requests.failAll('closed the connection before it answered');
				finishAll();
			});
		});

	const features = async () => {
		ready ??= connect();
		return ready;
	};

	return {
		socketPath,
		async request(method, args, timeoutMs) {
			if (!(await features()).includes('history')) {
				throw new AgentRequestError(`${describe()} keeps no history (it runs with --no-history, or is older than this podtop)`);
			}

			return requests.request(method, args, timeoutMs);
		},
		async send(message, feature) {
			try {
				if (!(await features()).includes(feature) || !socket) {
					return false;
				}
			} catch {
				return false;
			}

			return new Promise(resolve => {
				const timer = setTimeout(() => {
					resolve(false);
				}, answerMs);
				socket!.write(protocolLine(message), error => {
					clearTimeout(timer);
					resolve(!error);
				});
			});
		},
		async openLog(target, query, onLine, {signal, onBytes}) {
			try {
				if (!(await features()).includes('logs') || !socket || signal.aborted) {
					return undefined;
				}
			} catch {
				return undefined;
			}

			const id = ++nextLogId;
			const current = socket;
			const ended = new Promise<void>((resolve, reject) => {
				const finish = (error?: Error) => {
					signal.removeEventListener('abort', abort);
					if (error) {
						reject(error);
					} else {
						resolve();
					}
				};

				const abort = () => {
					following.delete(id);
					if (!current.destroyed) {
						current.write(protocolLine({type: 'logs', id, op: 'close'}));
					}

					finish();
				};

				following.set(id, {onLine, onBytes, finish});
				signal.addEventListener('abort', abort, {once: true});
			});
			current.write(protocolLine({type: 'logs', id, op: 'open', target, query}));
			return {ended};
		},
		close() {
			finishAll();
			requests.failAll('is no longer asked (podtop is closing)');
			const closing = socket;
			if (closing) {
				// What was written goes out, then the socket is let go, whether the agent closes its end or not (one that never does kept a write verb from exiting).
				const timer = setTimeout(() => {
					closing.destroy();
				}, answerMs);
				closing.once('close', () => {
					clearTimeout(timer);
				});
				closing.destroySoon();
			}

			socket = undefined;
			ready = undefined;
		},
	};
}
