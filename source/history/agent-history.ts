import {createStore} from 'zustand/vanilla';
import {createAgentHistoryReader, type AgentTransport} from './agent-reader.js';
import type {EventRow} from './event-rows.js';
import type {HistoryReader, RecordingState} from './history-types.js';
import type {History} from './open-history.js';

/** An agent whose history this process may read: its socket, whether it runs as this user, whether it records. */
export type AgentHistoryPeer = {readonly transport: AgentTransport; readonly sameUser: boolean; readonly records: boolean};

/** The history of a process that may be fed by an agent: the engine says when it attaches. */
export type AgentAwareHistory = History & {
	/**
	The feed attached to an agent (or went back to polling: undefined). An agent that records is the
	account's one recorder: this process stands by, and reads the agent's file when it can (the
	same user), its history over the socket otherwise (a `--group` member).
	*/
	readonly attached: (agent: AgentHistoryPeer | undefined) => void;
};

type Options = {
	/** For a process no agent feeds (a one-shot command): an agent of the account found on its socket now, if any. */
	readonly findAgent?: () => Omit<AgentHistoryPeer, 'records'> | undefined;
};

/** Forwarded job statuses remembered, so that two clients tracking one job record each status once. */
const maxForwardedJobs = 10_000;

/**
The account's history as this process reads it: its own file when it records or can read the
account's file (the same user), otherwise the agent's over its socket when an agent serves the
account (attached, or found for a one-shot command), otherwise none. `status` says `remote`
(source `agent`) while the agent's socket is what is read.
*/
export function withAgentHistory(local: History, {findAgent}: Options = {}): AgentAwareHistory {
	const status = createStore<RecordingState>()(() => local.status.getState());
	let remote: HistoryReader | undefined;
	let lookedForAgent = false;
	let decided = false;
	let following = false;
	const forwardedJobs = new Map<string, unknown>();

	const unsubscribe = local.status.subscribe(state => {
		if (!remote) {
			status.setState(state, true);
		}
	});

	const readRemote = (peer: Omit<AgentHistoryPeer, 'records'>) => {
		remote = createAgentHistoryReader({transport: peer.transport});
		status.setState({state: 'remote', source: 'agent'}, true);
	};

	const dropRemote = () => {
		void remote?.close();
		remote = undefined;
		status.setState(local.status.getState(), true);
	};

	/** Two clients tracking one job forward each of its statuses: recorded once. */
	const fresh = (event: EventRow) => {
		if (event.type !== 'job' || event.ref === undefined) {
			return true;
		}

		const {status: jobStatus} = event.data;
		if (forwardedJobs.get(event.ref) === jobStatus) {
			return false;
		}

		forwardedJobs.delete(event.ref);
		forwardedJobs.set(event.ref, jobStatus);
		if (forwardedJobs.size > maxForwardedJobs) {
			forwardedJobs.delete(forwardedJobs.keys().next().value!);
		}

		return true;
	};

	return {
		...local,
		status,
		reader() {
			if (!remote && findAgent && !lookedForAgent) {
				lookedForAgent = true;
				const found = findAgent();
				// Another user's agent: its file is not this user's to read (a file here would be this user's own, older).
				if (found && (!found.sameUser || !local.reader())) {
					readRemote(found);
				}
			}

			return remote ?? local.reader();
		},
		attached(peer) {
			const first = !decided;
			decided = true;
			if (peer?.records) {
				following = true;
				dropRemote();
				local.standBy(true);
				if (!peer.sameUser || !local.reader()) {
					readRemote(peer);
				}
			} else if (following || first) {
				following = false;
				dropRemote();
				local.standBy(false);
			}
		},
		record(events) {
			local.record(events.filter(event => fresh(event)));
		},
		async close() {
			unsubscribe();
			dropRemote();
			await local.close();
		},
	};
}
