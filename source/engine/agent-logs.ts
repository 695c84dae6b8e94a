import {findAgentSocket} from '../api/agent-socket-trust.js';
import {createAgentConnection, type AgentConnection} from '../poll/agent-connection.js';
import type {LogSessionOptions} from '../poll/open-log-session.js';

type LogStream = LogSessionOptions['logStream'];

export type AgentLogs = {
	/** Each connection of a log: through the agent when one that shares logs serves the account here, else to the service. */
	readonly logStream: LogStream;
	readonly close: () => void;
};

/**
Log streams that go through `podtop agent` when it runs (one upstream stream per log for all its
clients), or to the service when it does not, decided at each connect: a follow that resumes after
the agent went away resumes at the service, with its `Last-Event-ID`, and the other way round.
*/
export function createAgentLogs(direct: LogStream, link: {readonly candidates: readonly string[]; readonly secret: string} | undefined): AgentLogs {
	let connection: AgentConnection | undefined;
	return {
		async logStream(target, query, onLine, options, priority) {
			const socketPath = link && findAgentSocket(link.candidates);
			if (link && socketPath) {
				if (connection?.socketPath !== socketPath) {
					connection?.close();
					connection = createAgentConnection({socketPath, secret: link.secret});
				}

				const viaAgent = await connection.openLog(target, query, onLine, options);
				if (viaAgent) {
					return viaAgent;
				}
			}

			return direct(target, query, onLine, options, priority);
		},
		close() {
			connection?.close();
			connection = undefined;
		},
	};
}
