import type {EndpointRecord} from '../model/endpoint.js';
import type {GpuTypeRecord} from '../model/gpu-type.js';
import type {PodRecord} from '../model/pod.js';
import type {Health} from '../api/job-types.js';
import type {PastAccount, Tier} from '../history/history-types.js';
import type {ScheduledApi} from '../poll/scheduled-api.js';
import type {AccountSnapshot} from '../store/account-snapshot.js';
import {diagnose, type Diagnosis} from '../store/diagnosis.js';
import {podCost} from '../store/pod-figures.js';
import {trackWorkers} from '../store/worker-track.js';
import type {FiringAlert} from '../store/types.js';

/**
A pod as a snapshot gives it: its record as the service sent it (`costPerHr` its price while it runs,
which a stopped pod keeps), and what it costs now.
*/
export type SnapshotPod = PodRecord & {
	/** Dollars per hour it costs now: running, `costPerHr`; stopped, its volume; null when podtop cannot know. */
	readonly costNowPerHr: number | null;
	/** `costNowPerHr` is podtop's estimate from the published storage price, not the service's figure. */
	readonly costNowEstimated: boolean;
};

function snapshotPod(record: PodRecord): SnapshotPod {
	const {now, estimated} = podCost(record);
	return {...record, costNowPerHr: now ?? null, costNowEstimated: estimated};
}

export type Snapshot = {
	readonly mode: 'demo' | 'live';
	readonly apiHost: string;
	readonly generatedAt: string;
	/** Each endpoint with its health, and where jobs wait, the diagnosis of one look (its workers read once: restarts need reads over time). */
	readonly endpoints: ReadonlyArray<EndpointRecord & {readonly health: Health; readonly diagnosis?: Diagnosis}>;
	readonly pods: readonly SnapshotPod[];
	readonly gpuTypes: readonly GpuTypeRecord[];
	/** Where it came from: the service now, the picture of an agent on this host, or the recorded history (`snapshot --at`). */
	readonly via: 'direct' | 'agent' | 'history';
};

/** The account as it was (`snapshot --at`): the same picture, with the moment shown, the tier it comes from and the alerts firing then. */
export type PastSnapshot = Snapshot & {
	readonly via: 'history';
	/** The moment shown (ISO). */
	readonly at: string;
	/** raw: each thing as last recorded at or before `at`; minute or hour: the last values of the rollup bucket `at` falls in. */
	readonly tier: Tier;
	readonly alerts: readonly FiringAlert[];
};

type SnapshotMeta = {readonly mode: 'demo' | 'live'; readonly apiHost: string; readonly endpointFilter?: readonly string[]};

/**
One consistent picture: the endpoints (all, or the ones named) with their health, the pods with
their runtime and the GPU types with stock, fetched together within the same budgets. Any failure
(auth, network, an endpoint that does not exist) rejects the whole snapshot.
*/
export async function takeSnapshot(api: ScheduledApi, {mode, apiHost, endpointFilter}: SnapshotMeta): Promise<Snapshot> {
	const [records, pods, gpuTypes] = await Promise.all([api.endpoints('action'), api.pods('action'), api.gpuTypes('action')]);
	const watched = endpointFilter?.length ? endpointFilter.map(id => records.find(record => record.id === id) ?? {id, name: id}) : records;
	const endpoints = await Promise.all(
		watched.map(async record => {
			const health = await api.health(record.id, 'action');
			return {...record, health, ...(health.jobs.inQueue > 0 ? {diagnosis: await oneLook(api, record, health, gpuTypes)} : {})};
		}),
	);
	return {mode, apiHost, generatedAt: new Date().toISOString(), endpoints, pods: pods.map(pod => snapshotPod(pod)), gpuTypes, via: 'direct'};
}

/** Why an endpoint's jobs wait, from one read of its workers (none over GraphQL, or when the read fails: /health alone). */
async function oneLook(api: ScheduledApi, record: EndpointRecord, health: Health, gpus: readonly GpuTypeRecord[]): Promise<Diagnosis> {
	const at = Date.now();
	const list = api.workersPublished() ? await api.workers(record.id, 'action').catch(() => undefined) : undefined;
	return diagnose({
		endpoint: record,
		health,
		history: [{at, ...health.jobs, running: health.workers.running}],
		workers: list && trackWorkers(undefined, list, true),
		gpus,
		now: at,
	});
}

/**
The same picture from an agent's store, when it is whole and fresh: every endpoint with its health,
and no source stale. Otherwise undefined, and the caller asks the service.
*/
export function snapshotOfAccount(account: AccountSnapshot, {mode, apiHost}: SnapshotMeta): Snapshot | undefined {
	const {endpoints, pods, gpus, connection} = account;
	if (
		connection.jobApi.staleSince !== undefined ||
		connection.graphql.staleSince !== undefined ||
		endpoints.updatedAt === undefined ||
		pods.updatedAt === undefined ||
		gpus.updatedAt === undefined
	) {
		return undefined;
	}

	const picture = pictureOf(account, {mode, apiHost});
	return picture.endpoints.length < endpoints.order.length ? undefined : {...picture, via: 'agent'};
}

/** A store's collections as a snapshot's lists: every endpoint that has health, the pods with what they cost now, the GPU types. */
function pictureOf({endpoints, pods, gpus}: AccountSnapshot, {mode, apiHost, endpointFilter}: SnapshotMeta): Omit<Snapshot, 'via'> {
	const ids = endpointFilter?.length ? endpoints.order.filter(id => endpointFilter.includes(id)) : endpoints.order;
	const withHealth = ids.flatMap(id => {
		const {record, health} = endpoints.byId[id]!;
		return health ? [{...record, health}] : [];
	});
	const records = <R>(collection: {readonly order: readonly string[]; readonly byId: Readonly<Record<string, {readonly record: R}>>}) =>
		collection.order.map(id => collection.byId[id]!.record);
	return {
		mode,
		apiHost,
		generatedAt: new Date().toISOString(),
		endpoints: withHealth,
		pods: records(pods).map(pod => snapshotPod(pod)),
		gpuTypes: records(gpus),
	};
}

/** The account as recorded at a moment (`reader.stateAt`), as `snapshot --at` prints it. */
export function snapshotOfPast(past: PastAccount, meta: SnapshotMeta): PastSnapshot {
	return {...pictureOf(past, meta), via: 'history', at: new Date(past.at).toISOString(), tier: past.tier, alerts: past.alerts};
}
