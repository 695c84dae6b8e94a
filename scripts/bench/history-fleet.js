// A fleet for the history benchmarks: its shape (ids, names, images, GPU counts, endpoints' settings)
// read once from a real `podtop sim` through podtop's own clients, then its figures moved on to any
// simulated moment the way the simulator moves them (its load patterns), so a week is recorded in
// minutes without a poll over the network.
import {createGraphqlApi} from '../../dist/api/graphql-api.js';
import {createJobApi} from '../../dist/api/job-api.js';
import {Pools} from '../../dist/api/pools.js';
import {seedOf, smoothNoise} from '../../dist/sim/noise.js';
import {containerLoad, gpuLoad, patternForImage} from '../../dist/sim/pods/load-patterns.js';
import {startSim} from './pty.js';

/** The simulator's fleet as podtop's clients read it: endpoints, pods, GPU types and each endpoint's health. */
export async function readFleet({endpoints, pods, seed = 23}) {
	// Without counts: the simulator's own (demo) fleet.
	const sizes = endpoints === undefined ? [] : ['--endpoints', String(endpoints), '--pods', String(pods)];
	const sim = await startSim(['--no-load', '--seed', String(seed), ...sizes]);
	const pools = new Pools();
	try {
		const graphql = createGraphqlApi({url: `${sim.url}/graphql`, apiKey: 'bench-key', pools});
		const jobs = createJobApi({baseUrl: `${sim.url}/v2`, apiKey: 'bench-key', pools});
		const fleet = {endpoints: await graphql.endpoints(), pods: await graphql.pods(), gpus: await graphql.gpuTypes(), health: new Map()};
		for (let index = 0; index < fleet.endpoints.length; index += 50) {
			const batch = fleet.endpoints.slice(index, index + 50);
			const answers = await Promise.all(batch.map(async endpoint => jobs.health(endpoint.id)));
			for (const [position, endpoint] of batch.entries()) {
				fleet.health.set(endpoint.id, answers[position]);
			}
		}

		return fleet;
	} finally {
		await pools.close();
		sim.stop();
	}
}

/** The pods list at simulated time `at`: running pods' use as the simulator's load patterns give it, their uptime grown. */
export function podsAt(fleet, at, startedAt) {
	return fleet.pods.map(pod => {
		if (!pod.runtime) {
			return pod;
		}

		const pattern = patternForImage(pod.imageName ?? '');
		const seed = seedOf(pod.id);
		return {
			...pod,
			runtime: {
				...pod.runtime,
				uptimeInSeconds: (pod.runtime.uptimeInSeconds ?? 0) + Math.floor((at - startedAt) / 1000),
				gpus: (pod.runtime.gpus ?? []).map((gpu, index) => ({...gpu, ...gpuLoad(pattern, seed + index, at)})),
				container: containerLoad(pattern, seed, at),
			},
		};
	});
}

/** Each endpoint's health at simulated time `at`: queues that swell and drain, counters that only grow, workers that follow the queue. */
export function healthAt(fleet, at, startedAt) {
	return fleet.endpoints.map(endpoint => {
		const seed = seedOf(endpoint.id);
		const base = fleet.health.get(endpoint.id);
		const busy = smoothNoise(seed, at, 10 * 60_000);
		const minutes = (at - startedAt) / 60_000;
		const max = endpoint.workersMax ?? 3;
		const running = Math.min(max, Math.round(busy * max));
		return {
			endpointId: endpoint.id,
			health: {
				jobs: {
					inQueue: Math.round(busy * busy * 40 * smoothNoise(seed + 1, at, 45_000)),
					inProgress: running,
					completed: (base?.jobs.completed ?? 0) + Math.floor(minutes * 6 * busy),
					failed: (base?.jobs.failed ?? 0) + Math.floor(minutes * 0.1 * busy),
					retried: base?.jobs.retried ?? 0,
				},
				workers: {running, idle: Math.max(0, (endpoint.workersMin ?? 0) - running), initializing: 0, ready: running, throttled: 0, unhealthy: 0},
			},
		};
	});
}

/** Writes the fleet as it was at `at` into the store (what one round of polls brings). */
export function pollAt(writes, fleet, at, startedAt, {gpus = false} = {}) {
	writes.setPods(podsAt(fleet, at, startedAt), at);
	writes.setHealthResults(healthAt(fleet, at, startedAt), at);
	if (gpus) {
		writes.setGpuTypes(fleet.gpus, at);
	}
}
