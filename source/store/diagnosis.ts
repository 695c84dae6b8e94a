import type {Health} from '../api/job-types.js';
import {formatDuration} from '../format/duration.js';
import type {EndpointRecord} from '../model/endpoint.js';
import type {GpuTypeRecord} from '../model/gpu-type.js';
import type {Rollout} from '../model/worker.js';
import {stockOf} from './gpu-stock.js';
import type {HealthSample} from './types.js';
import type {EndpointWorkers} from './worker-track.js';

/** Why jobs wait, in the service's own triage order of what to look at. */
export type DiagnosisKind = 'crash-loop' | 'at-limit' | 'no-capacity' | 'cold-start' | 'stale-release';

export type Finding = {
	readonly kind: DiagnosisKind;
	/** A few words for a wide column: `crash loop`. */
	readonly word: string;
	/** At most 6 characters, for a narrow column: `crash`. */
	readonly short: string;
	/** In full, with the figures read: `2 workers restarted 5 times (uptime reset) in 15m; …`. */
	readonly text: string;
};

export type Diagnosis = {
	readonly endpointId: string;
	/** Jobs in the queue, as /health read them. */
	readonly queue: number | undefined;
	/** Most likely first: the first is the verdict. */
	readonly findings: readonly Finding[];
	/** How long jobs have waited with none served (none finished, none in progress), ms; undefined while jobs are served or none wait. */
	readonly unservedMs: number | undefined;
	/** When the workers were read; undefined: they were not (GraphQL, or not read yet), and only /health speaks. */
	readonly workersReadAt: number | undefined;
};

export type DiagnosisInput = {
	readonly endpoint: EndpointRecord;
	readonly health: Health | undefined;
	/** Recent /health samples, oldest first (the store's history). */
	readonly history: readonly HealthSample[];
	readonly workers: EndpointWorkers | undefined;
	readonly rollout?: Rollout;
	/** The GPU types the store holds (the catalog: each type's pool and stock). */
	readonly gpus: readonly GpuTypeRecord[];
	readonly now: number;
};

/** After this long INITIALIZING the service marks a worker unhealthy (its published scaler facts). */
export const coldStartLimitSeconds = 7 * 60;
/** Jobs waiting this long with workers that read RUNNING or IDLE and none served: the workers are not serving. */
export const notServingAfterMs = 60_000;
/** Restarts and departures this recent count as a crash loop. */
export const crashWindowMs = 15 * 60_000;
/** A worker that went this young, while jobs waited, did not go because it was idle. */
const youngSeconds = 10 * 60;

const plural = (count: number, word: string, words = `${word}s`) => `${count} ${count === 1 ? word : words}`;
/** `1 job waits`, `3 jobs wait`. */
const jobsWait = (count: number) => `${plural(count, 'job')} ${count === 1 ? 'waits' : 'wait'}`;
const done = (sample: HealthSample) => sample.completed + sample.failed;

/** How long the queue has waited with no job served (from the /health samples), or undefined. */
export function unservedFor(history: readonly HealthSample[], now: number): number | undefined {
	const latest = history.at(-1);
	if (!latest || latest.inQueue === 0 || latest.inProgress > 0) {
		return undefined;
	}

	let since = latest;
	for (let index = history.length - 2; index >= 0; index--) {
		const sample = history[index]!;
		if (sample.inQueue === 0 || sample.inProgress > 0 || done(sample) < done(since)) {
			break;
		}

		since = sample;
	}

	return Math.max(0, now - since.at);
}

/** Counts of each status, in a fixed order: `RUNNING 1, THROTTLED 1`. */
function statusCounts(statuses: readonly string[]): string {
	const counts = new Map<string, number>();
	for (const status of statuses) {
		counts.set(status, (counts.get(status) ?? 0) + 1);
	}

	return [...counts].map(([status, count]) => `${status} ${count}`).join(', ');
}

function crashLoop(input: DiagnosisInput, unservedMs: number | undefined): Finding | undefined {
	const {health, workers, now} = input;
	const listed = workers?.list.workers ?? [];
	const unhealthy = workers ? listed.filter(worker => worker.status === 'UNHEALTHY').length : (health?.workers.unhealthy ?? 0);
	const recent = workers ? listed.filter(worker => (workers.tracks[worker.id]?.lastRestartAt ?? -Infinity) >= now - crashWindowMs) : [];
	const restarts = recent.reduce((sum, worker) => sum + workers!.tracks[worker.id]!.restarts, 0);
	const young = (workers?.gone ?? []).filter(gone => gone.at >= now - crashWindowMs && gone.queueWaited && (gone.uptimeSeconds ?? 0) < youngSeconds);
	const claiming = listed.filter(worker => worker.status === 'RUNNING' || worker.status === 'IDLE');
	const notServing = unservedMs !== undefined && unservedMs >= notServingAfterMs && claiming.length > 0;
	const parts = [
		unhealthy > 0 ? `${plural(unhealthy, 'worker')} UNHEALTHY` : undefined,
		recent.length > 0
			? `${plural(recent.length, 'worker')} restarted ${plural(restarts, 'time')} (uptime reset) in ${formatDuration(crashWindowMs / 1000)}`
			: undefined,
		young.length > 0
			? `${plural(young.length, 'worker')} gone after ${formatDuration(Math.max(...young.map(gone => gone.uptimeSeconds ?? 0)))} or less while jobs waited`
			: undefined,
		notServing
			? `none served a job in ${formatDuration(unservedMs / 1000)} while ${input.health?.jobs.inQueue ?? '?'} waited, though ${plural(claiming.length, 'worker')} read ${statusCounts(claiming.map(worker => worker.status))}`
			: undefined,
	].filter(part => part !== undefined);
	if (parts.length === 0) {
		return undefined;
	}

	// The service often shows a crash-looping worker RUNNING or THROTTLED with unhealthy 0: say so when it does.
	const shown = listed.length > 0 && unhealthy === 0 ? ` · the service shows ${statusCounts(listed.map(worker => worker.status))}, unhealthy 0` : '';
	return {kind: 'crash-loop', word: 'crash loop', short: 'crash', text: `crash loop: ${parts.join('; ')}${shown}; the workers' logs say why`};
}

function atLimit({endpoint, health, workers}: DiagnosisInput): Finding | undefined {
	const queue = health?.jobs.inQueue ?? 0;
	const max = endpoint.workersMax;
	if (max === 0) {
		return {
			kind: 'at-limit',
			word: 'max 0',
			short: 'max 0',
			text: `at its limit: max workers is 0, so no worker may start${queue > 0 ? ` (${jobsWait(queue)})` : ''}`,
		};
	}

	if (queue === 0 || max === null || max === undefined) {
		return undefined;
	}

	const counts = health?.workers;
	const up = workers ? workers.list.workers.length : counts ? counts.running + counts.idle + counts.initializing + counts.throttled + counts.unhealthy : 0;
	return up >= max
		? {kind: 'at-limit', word: 'at limit', short: 'limit', text: `at its limit: ${up} of max ${max} workers, ${jobsWait(queue)}; a higher max lets more start`}
		: undefined;
}

/** The endpoint's allowed data centers (`EU-RO-1,US-TX-3`), or undefined: any. */
const allowedCenters = (endpoint: EndpointRecord): readonly string[] | undefined => {
	const ids = (endpoint.locations ?? '')
		.split(',')
		.map(id => id.trim())
		.filter(Boolean);
	return ids.length > 0 ? ids : undefined;
};

/** A type's stock in each allowed data center (those offering it, without a list), `None` where one offers none: undefined where the catalog gave none by data center. */
function centerStock(type: GpuTypeRecord, allowed: readonly string[] | undefined): ReadonlyArray<readonly [string, string]> | undefined {
	const byCenter = type.dataCenterStock;
	if (!byCenter) {
		return undefined;
	}

	return (allowed ?? Object.keys(byCenter)).map(id => [id, byCenter[id] ?? 'None'] as const);
}

/**
The GPU types of the endpoint's pools (and those its workers run on), with their stock, in each of its
data centers where the catalog says (REST v2): `L40 Low (EU-RO-1 Low, US-TX-3 None), RTX 6000 Ada None (EU-RO-1 None, US-TX-3 None)`.
`allNone`: none free where the endpoint may run; `centers`: of its data centers, how many have one of its types free, and how many there are.
*/
function poolStock({endpoint, workers, gpus}: DiagnosisInput): {
	readonly text: string;
	readonly allNone: boolean;
	readonly centers?: {readonly stocked: number; readonly all: number};
} {
	const pools = new Set((endpoint.gpuIds ?? '').split(',').map(pool => pool.trim()));
	const running = new Set(workers?.list.workers.map(worker => worker.gpuTypeId));
	const types = gpus.filter(type => (type.pool && pools.has(type.pool)) || pools.has(type.id) || running.has(type.id));
	if (types.length === 0) {
		return {text: `stock of ${endpoint.gpuIds || 'its pools'}: not known (no GPU type read)`, allNone: false};
	}

	const allowed = allowedCenters(endpoint);
	const stock = types.map(type => ({name: type.displayName ?? type.id, stock: stockOf(type), centers: centerStock(type, allowed)}));
	const where = allowed ? ` in ${allowed.join(', ')}` : '';
	const text = `stock of ${endpoint.gpuIds}${where}: ${stock
		.map(
			each =>
				`${each.name} ${each.stock}${each.centers ? ` (${each.centers.length > 0 ? each.centers.map(([id, level]) => `${id} ${level}`).join(', ') : 'no data center offers it'})` : ''}`,
		)
		.join(', ')}`;
	const byCenter = stock.every(each => each.centers !== undefined);
	if (!byCenter) {
		return {text, allNone: stock.every(each => each.stock === 'None')};
	}

	const centers = new Map<string, boolean>(allowed?.map(id => [id, false]));
	for (const each of stock) {
		for (const [id, level] of each.centers!) {
			centers.set(id, centers.get(id) === true || level !== 'None');
		}
	}

	const stocked = [...centers.values()].filter(Boolean).length;
	return {text, allNone: stocked === 0, centers: {stocked, all: centers.size}};
}

/** How many of the endpoint's data centers have one of its pools' GPU types free, when the catalog says. */
function centersText({centers}: ReturnType<typeof poolStock>): string {
	if (!centers) {
		return '';
	}

	return centers.stocked === 0
		? `; none free in ${centers.all === 1 ? 'its data center' : `any of its ${centers.all} data centers`}`
		: `; free in ${centers.stocked} of its ${plural(centers.all, 'data center')}`;
}

function noCapacity(input: DiagnosisInput): Finding | undefined {
	const {health, workers} = input;
	const throttled = workers ? workers.list.workers.filter(worker => worker.status === 'THROTTLED').length : (health?.workers.throttled ?? 0);
	if (throttled > 0) {
		const stock = poolStock(input);
		return {
			kind: 'no-capacity',
			word: 'no capacity',
			short: 'no gpu',
			text: `no capacity: ${plural(throttled, 'worker')} THROTTLED, waiting for a GPU${centersText(stock)}; ${stock.text}`,
		};
	}

	const queue = health?.jobs.inQueue ?? 0;
	const none = workers
		? workers.list.workers.length === 0
		: health !== undefined && health.workers.running + health.workers.idle + health.workers.initializing === 0;
	// The pools' stock is read only when it is said (it was half of every endpoint's diagnosis at 500 endpoints).
	if (queue === 0 || !none) {
		return undefined;
	}

	const stock = poolStock(input);
	return stock.allNone
		? {
				kind: 'no-capacity',
				word: 'no capacity',
				short: 'no gpu',
				text: `no capacity: no worker up while ${jobsWait(queue)}${centersText(stock)}; ${stock.text}`,
			}
		: undefined;
}

function coldStart({health, workers, now}: DiagnosisInput): Finding | undefined {
	if (!workers) {
		const initializing = health?.workers.initializing ?? 0;
		return initializing > 0
			? {
					kind: 'cold-start',
					word: 'cold start',
					short: 'cold',
					text: `cold start: ${plural(initializing, 'worker')} initializing (for how long: workers not read)`,
				}
			: undefined;
	}

	const {list, tracks} = workers;
	const seconds = list.workers
		.filter(worker => worker.status === 'INITIALIZING')
		.map(worker =>
			worker.uptimeSeconds === undefined ? (now - (tracks[worker.id]?.statusSince ?? list.readAt)) / 1000 : worker.uptimeSeconds + (now - list.readAt) / 1000,
		);
	if (seconds.length === 0) {
		return undefined;
	}

	const longest = Math.max(...seconds);
	const limit = formatDuration(coldStartLimitSeconds);
	return {
		kind: 'cold-start',
		word: 'cold start',
		short: 'cold',
		text: `cold start: ${plural(seconds.length, 'worker')} INITIALIZING, the longest for ${formatDuration(longest)} ${
			longest > coldStartLimitSeconds
				? `(over the ${limit} after which the service marks a worker unhealthy)`
				: `of the ${limit} the service allows before it marks a worker unhealthy`
		}`,
	};
}

function staleRelease({workers, rollout}: DiagnosisInput): Finding | undefined {
	const listed = workers?.list.workers ?? [];
	const stale = listed.filter(worker => worker.isStale);
	if (stale.length === 0) {
		return undefined;
	}

	const versions = [...new Set(stale.map(worker => (worker.version === undefined ? '?' : `v${worker.version}`)))].join(', ');
	const latest = workers?.list.endpointVersion ?? rollout?.endpointVersion;
	return {
		kind: 'stale-release',
		word: 'stale',
		short: 'stale',
		text: `stale release: ${stale.length} of ${plural(listed.length, 'worker')} on ${versions}${latest === undefined ? '' : `, not the latest v${latest}`}${
			rollout ? ` (${Math.round(rollout.percentOnLatest)} % on the latest${rollout.inProgress ? ', rolling out' : ''})` : ''
		}`,
	};
}

/**
Why an endpoint's jobs wait, following the service's own triage with the figures it read: a crash loop
(UNHEALTHY, or workers restarting, going young or never serving while the queue waits, whatever status
they report), its limit, no capacity, a cold start, a stale release. Pure: the same input, the same answer.
*/
export function diagnose(input: DiagnosisInput): Diagnosis {
	const unservedMs = unservedFor(input.history, input.now);
	const findings = [crashLoop(input, unservedMs), atLimit(input), noCapacity(input), coldStart(input), staleRelease(input)].filter(
		(finding): finding is Finding => finding !== undefined,
	);
	return {endpointId: input.endpoint.id, queue: input.health?.jobs.inQueue, findings, unservedMs, workersReadAt: input.workers?.list.readAt};
}

/**
Until when the same input's verdict (the kinds found, and `stuck`) holds as time passes, from `input.now` on: the
moment a queue unserved reaches a minute, or a restart or a worker gone leaves the crash window; those are the
findings that read the clock (a finding made to read it must be bounded here). Its texts' figures move on regardless.
*/
export function verdictSteadyUntil(input: DiagnosisInput, unservedMs: number | undefined): number {
	const {now, workers} = input;
	let until = unservedMs !== undefined && unservedMs < notServingAfterMs ? now - unservedMs + notServingAfterMs : Infinity;
	for (const worker of workers?.list.workers ?? []) {
		const restartAt = workers!.tracks[worker.id]?.lastRestartAt;
		if (restartAt !== undefined && restartAt + crashWindowMs >= now) {
			until = Math.min(until, restartAt + crashWindowMs);
		}
	}

	for (const gone of workers?.gone ?? []) {
		if (gone.at + crashWindowMs >= now) {
			until = Math.min(until, gone.at + crashWindowMs);
		}
	}

	return until;
}
