import {maxRecordEvents, type AgentPeer, type RecordLine} from '../api/agent-protocol.js';
import {agentIsSameUser, findAgentSocket} from '../api/agent-socket-trust.js';
import {jobEvent, writeEvent} from '../history/event-rows.js';
import {createAgentConnection} from '../poll/agent-connection.js';
import type {PodtopStore} from '../store/create-store.js';
import type {AuditRecord} from '../history/audit-record.js';

export type AgentForwarding = {
	/** The feed attached to `peer`, or went back to polling (undefined). */
	readonly attached: (peer: AgentPeer | undefined) => void;
	/** A write this process made (its audit line). */
	readonly wrote: (entry: AuditRecord) => void;
	/** Stops watching the store, and waits (briefly) for what is still being handed over. */
	readonly stop: () => Promise<void>;
};

type Options = {
	readonly store: PodtopStore;
	/** Sends a line over the feed's connection; false when not attached. */
	readonly send: (message: RecordLine) => boolean;
	/** Where the agent may be and the handshake's secret, for a process no feed attaches (a write verb). */
	readonly link?: {readonly candidates: readonly string[]; readonly secret: string};
	/** How long closing waits for a write still being handed to the agent. */
	readonly closeMs?: number;
};

/**
What only this process knows, for the agent's timeline: the status changes of the jobs it tracks
(the agent polls none of them), and its writes when the agent runs as another user (which cannot
read this user's audit log; an agent of the same user reads it, so they are not sent twice). A
process that is not attached (a write verb) hands its writes to such an agent over a connection
of its own.
*/
export function createAgentForwarding({store, send, link, closeMs = 1000}: Options): AgentForwarding {
	let peer: AgentPeer | undefined;
	const sent = new Map<string, string>();
	const handing = new Set<Promise<unknown>>();

	const forward = (events: readonly unknown[]) => {
		for (let start = 0; start < events.length; start += maxRecordEvents) {
			send({type: 'record', events: events.slice(start, start + maxRecordEvents)});
		}
	};

	const unsubscribe = store.subscribe((next, previous) => {
		if (next.jobs === previous.jobs || !peer?.features.includes('record')) {
			return;
		}

		const events = [];
		for (const key of next.jobs.changed) {
			const job = next.jobs.byKey.get(key);
			if (job && sent.get(key) !== job.status) {
				sent.set(key, job.status);
				events.push({...jobEvent(job, next.endpoints.byId[job.endpointId]?.record.name ?? job.endpointId), at: Date.now()});
			}
		}

		forward(events);
	});

	/** A write verb: no feed, so one short connection to an agent of another user, if one serves the account here. */
	const handOver = (event: unknown) => {
		const socketPath = link && findAgentSocket(link.candidates);
		if (!link || !socketPath || agentIsSameUser(socketPath)) {
			return;
		}

		const connection = createAgentConnection({socketPath, secret: link.secret, answerMs: closeMs});
		const done = connection.send({type: 'record', events: [event]}, 'record').finally(() => {
			connection.close();
			handing.delete(done);
		});
		handing.add(done);
	};

	return {
		attached(next) {
			peer = next;
		},
		wrote(entry) {
			const event = writeEvent(entry);
			if (!event) {
				return;
			}

			if (!peer) {
				handOver(event);
			} else if (!peer.sameUser && peer.features.includes('record')) {
				forward([event]);
			}
		},
		async stop() {
			unsubscribe();
			let timer: NodeJS.Timeout | undefined;
			await Promise.race([
				Promise.allSettled(handing),
				new Promise(resolve => {
					timer = setTimeout(resolve, closeMs);
				}),
			]);
			clearTimeout(timer);
		},
	};
}
