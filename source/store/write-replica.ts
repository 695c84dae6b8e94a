import {deepEqual} from '../lib/deep-equal.js';
import type {AccountSnapshot} from './account-snapshot.js';
import {endpointFigures} from './endpoint-figures.js';
import type {GetState, SetState} from './state.js';
import type {ConnectionState, SourceName} from './types.js';

export type ReplicaWrites = {
	/** An agent's picture of the account replaces the store's (its histories too). */
	readonly adoptAccount: (snapshot: AccountSnapshot) => void;
	/** A poll source's state as the agent reports it. */
	readonly setConnection: (source: SourceName, state: ConnectionState) => void;
	/** Where the account's data comes from: this process's pollers, or an agent on the host. */
	readonly setVia: (via: 'direct' | 'agent') => void;
};

export function replicaWrites(set: SetState, get: GetState): ReplicaWrites {
	let attachments = 0;
	return {
		adoptAccount({endpoints, pods, gpus, serverlessDiscount, connection}) {
			// Figures are derived data: worked out here again rather than trusted off the wire.
			const byId = Object.fromEntries(
				Object.entries(endpoints.byId).map(([id, endpoint]) => [id, {...endpoint, figures: endpointFigures(endpoint.history ?? [])}]),
			);
			// Each attachment is a source of its own (an agent restarted knows nothing of the last one's lists), and so are the lists it sends.
			attachments += 1;
			const listSource = `agent ${attachments}`;
			set({
				listSource,
				endpoints: {...endpoints, byId, listedBy: listSource},
				pods: {...pods, listedBy: listSource},
				gpus: {...gpus, listedBy: listSource},
				serverlessDiscount: serverlessDiscount ?? undefined,
				connection: {jobApi: connection.jobApi ?? {}, graphql: connection.graphql ?? {}},
			});
		},
		setConnection(source, state) {
			if (!deepEqual(get().connection[source], state)) {
				set({connection: {...get().connection, [source]: state}});
			}
		},
		setVia(via) {
			if (get().via !== via) {
				set(via === 'direct' ? {via, listSource: 'direct'} : {via});
			}
		},
	};
}
