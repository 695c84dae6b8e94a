import type {Place} from '../view-state/view-state.js';
import type {PodtopState} from './state.js';

/**
When the oldest data a view shows was fetched: the GraphQL lists (endpoints, pods, GPU types) at
their last successful poll, and an endpoint's workers and queue at its own last health poll (the
Endpoints pane: the oldest of `endpointIds`, those on screen; an endpoint's details: its own); a
job view, the job API's last. Undefined until every source the view reads has answered once.
*/
export function oldestFetchAt(state: PodtopState, place: Place, endpointIds: readonly string[]): number | undefined {
	const graphql = state.connection.graphql.lastSuccessAt;
	switch (place) {
		case 'endpoints': {
			let oldest = graphql;
			for (const id of endpointIds) {
				const at = state.endpoints.byId[id]?.healthAt;
				if (at === undefined) {
					return undefined;
				}

				oldest = oldest === undefined ? undefined : Math.min(oldest, at);
			}

			return oldest;
		}

		case 'endpoint': {
			const at = endpointIds[0] === undefined ? undefined : state.endpoints.byId[endpointIds[0]]?.healthAt;
			return graphql === undefined || at === undefined ? undefined : Math.min(graphql, at);
		}

		case 'job': {
			return state.connection.jobApi.lastSuccessAt;
		}

		default: {
			return graphql;
		}
	}
}
