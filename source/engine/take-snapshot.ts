import type {EndpointRecord, GpuTypeRecord, PodRecord} from '../api/graphql-types.js';
import type {Health} from '../api/job-types.js';
import type {ScheduledApi} from '../poll/scheduled-api.js';

export type Snapshot = {
	readonly mode: 'demo' | 'live';
	readonly apiHost: string;
	readonly generatedAt: string;
	readonly endpoints: ReadonlyArray<EndpointRecord & {readonly health: Health}>;
	readonly pods: readonly PodRecord[];
	readonly gpuTypes: readonly GpuTypeRecord[];
};

/**
One consistent picture: the endpoints (all, or the ones named) with their health, the pods with
their runtime and the GPU types with stock, fetched together within the same budgets. Any failure
(auth, network, an endpoint that does not exist) rejects the whole snapshot.
*/
export async function takeSnapshot(
	api: ScheduledApi,
	{mode, apiHost, endpointFilter}: {readonly mode: 'demo' | 'live'; readonly apiHost: string; readonly endpointFilter?: readonly string[]},
): Promise<Snapshot> {
	const [records, pods, gpuTypes] = await Promise.all([api.endpoints('action'), api.pods('action'), api.gpuTypes('action')]);
	const watched = endpointFilter?.length ? endpointFilter.map(id => records.find(record => record.id === id) ?? {id, name: id}) : records;
	const endpoints = await Promise.all(watched.map(async record => ({...record, health: await api.health(record.id, 'action')})));
	return {mode, apiHost, generatedAt: new Date().toISOString(), endpoints, pods, gpuTypes};
}
