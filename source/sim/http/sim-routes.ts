import type {IncomingMessage, ServerResponse} from 'node:http';
import {parseFaults} from '../faults.js';
import type {Simulator} from '../simulator.js';
import {readBody} from './read-body.js';
import {sendError, sendJson} from './respond.js';

/**
`GET /__sim/jobs/<endpoint>`: the jobs the endpoint still holds, oldest first, with their simulated
times (epoch ms) and the delay and execution times `/status` reports for them, so a client's
measurements can be checked against the simulator's own.
*/
function listJobs(sim: Simulator, endpointId: string, response: ServerResponse): void {
	const endpoint = sim.endpoints.get(endpointId);
	if (!endpoint) {
		sendError(response, 404, `No endpoint ${endpointId}`);
		return;
	}

	const jobs = [...endpoint.jobs()].map(job => ({
		id: job.id,
		status: job.status,
		sync: job.sync,
		queuedAt: job.queuedAt,
		startedAt: job.startedAt ?? null,
		finishedAt: job.finishedAt ?? null,
		delayTime: job.startedAt === undefined ? null : Math.round(job.startedAt - job.queuedAt),
		executionTime: job.startedAt === undefined || job.finishedAt === undefined ? null : Math.round(job.finishedAt - job.startedAt),
		workerId: job.workerId ?? null,
	}));
	sendJson(response, 200, {now: sim.clock.now(), jobs});
}

/** `/__sim/...`: the simulator's own introspection, behind the same key. Not part of the service. */
export async function handleSimRoute(sim: Simulator, request: IncomingMessage, response: ServerResponse, parts: readonly string[]): Promise<void> {
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

		case 'POST faults': {
			let body: unknown;
			try {
				body = JSON.parse(await readBody(request, 64 * 1024));
			} catch {
				sendError(response, 400, 'fault must be JSON');
				return;
			}

			const faults = parseFaults(body);
			if (typeof faults === 'string') {
				sendError(response, 400, faults);
				return;
			}

			for (const fault of faults) {
				sim.faults.add(fault);
			}

			sendJson(response, 200, {added: Array.isArray(body) ? faults : faults[0]});
			return;
		}

		case 'GET faults': {
			sendJson(response, 200, {faults: sim.faults.list()});
			return;
		}

		case 'DELETE faults': {
			sim.faults.clear();
			sendJson(response, 200, {cleared: true});
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
			if (request.method === 'GET' && parts[0] === 'jobs' && parts.length === 2) {
				listJobs(sim, parts[1]!, response);
				return;
			}

			sendError(response, 404, `No simulator route ${route}`);
		}
	}
}
