import type {IncomingMessage, ServerResponse} from 'node:http';
import type {Simulator} from '../simulator.js';
import {sendError, sendJson} from './respond.js';

/** `/__sim/...`: the simulator's own introspection, behind the same key. Not part of the service. */
export function handleSimRoute(sim: Simulator, request: IncomingMessage, response: ServerResponse, parts: readonly string[]): void {
	const route = `${request.method} ${parts.join('/')}`;
	switch (route) {
		case 'GET stats': {
			sendJson(response, 200, {endpoints: sim.stats.snapshot()});
			return;
		}

		case 'POST stats/reset': {
			sim.stats.reset();
			sendJson(response, 200, {reset: true});
			return;
		}

		case 'GET endpoints': {
			sendJson(response, 200, {
				now: sim.clock.now(),
				speed: sim.clock.speed,
				endpoints: [...sim.endpoints.values()].map(endpoint => ({
					...endpoint.spec,
					queue: endpoint.queueLength,
					jobs: endpoint.jobCount,
					workers: [...endpoint.workers].map(({id, state, jobId}) => ({id, state, jobId})),
				})),
			});
			return;
		}

		default: {
			sendError(response, 404, `No simulator route ${route}`);
		}
	}
}
