import type {Endpoint} from '../endpoint.js';
import {parseLogQuery} from '../logs/log-query.js';
import {streamLog} from '../logs/log-stream.js';
import type {SimWorker} from '../sim-worker.js';
import {accountEndpoint} from './endpoint-routes.js';
import {RestError} from './rest-error.js';
import {eventStream, ok, type RestRoute} from './router.js';

const statuses = {
	initializing: 'INITIALIZING',
	idle: 'IDLE',
	running: 'RUNNING',
	throttled: 'THROTTLED',
	unhealthy: 'UNHEALTHY',
} as const;

/** What the service reports: a crash-looping worker as it last saw it, RUNNING or THROTTLED. */
const statusOf = (worker: SimWorker) => statuses[worker.state === 'crashing' ? (worker.shownAs ?? 'running') : worker.state];

const iso = (ms: number) => new Date(Math.floor(ms / 1000) * 1000).toISOString().replace('.000Z', 'Z');

function workerResource(endpoint: Endpoint, worker: SimWorker, now: number): Record<string, unknown> {
	const placed = worker.gpuTypeId !== undefined;
	return {
		id: worker.id,
		status: statusOf(worker),
		isStale: worker.version < endpoint.spec.version,
		version: worker.version,
		gpuCount: endpoint.spec.gpuCount,
		image: worker.image,
		uptimeSeconds: placed && worker.startedAt !== undefined ? Math.max(0, Math.floor((now - worker.startedAt) / 1000)) : null,
		gpuTypeId: worker.gpuTypeId ?? null,
		dataCenterId: worker.dataCenterId ?? null,
		startedAt: placed && worker.startedAt !== undefined ? iso(worker.startedAt) : null,
	};
}

/** `/v2/serverless/{id}/workers`, `/releases` and a worker's log stream, read from the pool the job API's `/health` counts. */
export const workerRoutes: readonly RestRoute[] = [
	{
		path: '/serverless/{id}/workers',
		methods: {
			GET({sim, params}) {
				const endpoint = accountEndpoint(sim, params.id!);
				const now = sim.clock.now();
				const workers = [...endpoint.workers].map(worker => workerResource(endpoint, worker, now));
				const summary = {running: 0, idle: 0, initializing: 0, throttled: 0, unhealthy: 0, total: workers.length};
				for (const worker of workers) {
					summary[(worker.status as string).toLowerCase() as keyof typeof summary]++;
				}

				return ok({workers, summary, endpointVersion: endpoint.spec.version});
			},
		},
	},
	{
		path: '/serverless/{id}/releases',
		methods: {
			GET({sim, params}) {
				const endpoint = accountEndpoint(sim, params.id!);
				const {version} = endpoint.spec;
				const workers = [...endpoint.workers];
				const onLatest = workers.filter(worker => worker.version >= version).length;
				return ok({
					endpointVersion: version,
					rollout: {
						inProgress: onLatest < workers.length,
						workersOnLatest: onLatest,
						workersTotal: workers.length,
						percentOnLatest: workers.length === 0 ? 0 : Math.floor((onLatest * 100) / workers.length),
					},
					releases: endpoint.releases.list.map(release => ({
						id: release.id,
						version: release.version,
						source: 'MANUAL',
						buildId: null,
						createdByUserId: null,
						workerCount: workers.filter(worker => worker.version === release.version).length,
						createdAt: iso(release.createdAt),
						diff: release.diff,
					})),
				});
			},
		},
	},
	{
		path: '/serverless/{id}/workers/{workerId}/logs',
		methods: {
			GET({sim, params, query, request}) {
				const endpoint = accountEndpoint(sim, params.id!);
				const worker = [...endpoint.workers].find(candidate => candidate.id === params.workerId);
				if (!worker) {
					throw new RestError(404, `worker ${params.workerId!} not found on endpoint ${endpoint.id} (only active workers are listed)`);
				}

				const logQuery = parseLogQuery(query, request.headers['last-event-id'] as string | undefined);
				return eventStream(response => {
					// Counted per endpoint or pod (`/__sim/stats`): a test proves an agent holds one stream for all its clients.
					response.once('close', sim.stats.begin(endpoint.id, 'logStream'));
					streamLog(response, worker.logs, logQuery);
				});
			},
		},
	},
];
