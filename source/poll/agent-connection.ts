import {createConnection, type Socket} from 'node:net';
import {createClientHandshake} from '../api/agent-handshake.js';
import {
	createLineSplitter,
	featuresOf,
	isHistoryAnswer,
	maxAgentLineLength,
	protocolLine,
	readAgentLine,
	type AgentFeature,
	type ClientLine,
	type HistoryMethod,
} from '../api/agent-protocol.js';
import {AgentRequestError, createAgentRequests} from '../api/agent-requests.js';

export type AgentConnection = {
	readonly socketPath: string;
	/** A history request: connects first if need be (a hello without the feed), then asks. */
	readonly request: (method: HistoryMethod, args: readonly unknown[], timeoutMs: number) => Promise<unknown>;
	/** Sends one line (a `record` line) once connected to an agent that offers `feature`; false when none took it. */
	readonly send: (message: ClientLine, feature: AgentFeature) => Promise<boolean>;
	readonly close: () => void;
};

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
		close() {
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
