import {parse} from 'graphql';
import {documents} from '../api/graphql-documents.js';
import {compileProjection} from './graphql/project.js';
import {createRootValue} from './graphql/resolvers.js';
import type {Simulator} from './simulator.js';

/**
How often the past is observed, per kind (simulated ms). The dashboard polls health and pods every
5 s, GPU types every 30 s and the endpoint list every 60 s (source/poll/cadence.ts); the past takes
health every 15 s and pods every 30 s instead, for what each observation costs to simulate, send and
record (6 h at 5 s would be 4,320 of them), while a minute of the history's 1-minute rollups still
holds several samples of each.
*/
export type PastCadence = {readonly healthMs: number; readonly podsMs: number; readonly gpuTypesMs: number; readonly endpointsMs: number};

export const pastCadence: PastCadence = {healthMs: 15_000, podsMs: 30_000, gpuTypesMs: 30_000, endpointsMs: 60_000};

/** Which kinds an observation holds: every one at the first, then each at its own cadence. */
export type ObservedKinds = {readonly endpoints: boolean; readonly health: boolean; readonly pods: boolean; readonly gpuTypes: boolean};

/**
Takes observations of the simulated account as a client polling it would have seen them: the
client's own GraphQL documents (source/api/graphql-documents.ts) answered from the simulator's
views (a projection that answers what graphql-js does, without its cost), and each account
endpoint's `/health` answer. Each is one NDJSON line:
`{"at", "endpoints", "discount", "health": {id: answer}, "pods", "gpuTypes"}`, the kinds not due left out.
*/
export function createPastObserver(sim: Simulator): (kinds: ObservedKinds) => string {
	const rootValue = createRootValue(sim);
	const queries = {
		endpoints: compileProjection(parse(documents.endpoints)),
		pods: compileProjection(parse(documents.pods)),
		gpuTypes: compileProjection(parse(documents.gpuTypes)),
	};

	let accountEndpoints: string[] = [];
	return kinds => {
		const line: Record<string, unknown> = {at: Math.round(sim.clock.now())};
		if (kinds.endpoints) {
			const myself = queries.endpoints(rootValue).myself as {endpoints: Array<{id: string}>; serverlessDiscount: unknown};
			line.endpoints = myself.endpoints;
			line.discount = myself.serverlessDiscount;
			accountEndpoints = myself.endpoints.map(endpoint => endpoint.id);
		}

		if (kinds.health) {
			const health: Record<string, unknown> = {};
			for (const id of accountEndpoints) {
				const endpoint = sim.endpoints.get(id);
				if (endpoint) {
					health[id] = endpoint.health();
				}
			}

			line.health = health;
		}

		if (kinds.pods) {
			line.pods = (queries.pods(rootValue).myself as {pods: unknown[]}).pods;
		}

		if (kinds.gpuTypes) {
			line.gpuTypes = queries.gpuTypes(rootValue, {gpuCount: 1, secureCloud: null}).gpuTypes;
		}

		return JSON.stringify(line);
	};
}
