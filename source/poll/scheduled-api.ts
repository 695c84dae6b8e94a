import type {CompatApi} from '../api/compat-api.js';
import {ApiError} from '../api/errors.js';
import type {LogLine, LogQuery, LogTarget} from '../model/log-line.js';
import type {ManagementApi} from '../model/management-api.js';
import type {EndpointChanges, EndpointInput} from '../model/endpoint.js';
import type {PodDeployInput} from '../model/pod.js';
import type {SpendQuery, SpendResourceKind} from '../model/spend.js';
import type {JobApi} from '../api/job-api.js';
import type {JobRequest} from '../api/job-types.js';
import {budgetKey, v2BudgetKey, type Priority, type Scheduler} from './scheduler.js';

const spendKey = ({bucketSize, from, to, lastN}: SpendQuery) => `${bucketSize}:${from ?? ''}:${to ?? ''}:${lastN ?? ''}`;

/**
Every API call podtop makes, routed through the scheduler with its budget, priority and
idempotency: reads are coalesced and may be retried; `/run`, `/runsync`, `/cancel`, `/retry`,
`/purge-queue` and every mutation go out once, at a user's priority.
*/
export function createScheduledApi({
	jobApi,
	managementApi,
	managementBudget = () => 'graphql',
	readsPodsApart = () => true,
	compatApi,
	scheduler,
}: {
	readonly jobApi: JobApi;
	readonly managementApi: ManagementApi;
	/** The budget management calls count against: the API's in use (`v2`, with the service's windows, or `graphql`). */
	readonly managementBudget?: () => string;
	/** Whether the API in use reads some pods apart from the whole list (GraphQL does; REST v2 has no such read, so its pods by id cost the whole list). */
	readonly readsPodsApart?: () => boolean;
	readonly compatApi: CompatApi;
	readonly scheduler: Scheduler;
}) {
	const read = async <T>(budget: string, coalesce: string, priority: Priority, run: (signal: AbortSignal) => Promise<T>) =>
		scheduler.submit({budget, coalesce, priority, idempotent: true, run});
	const write = async <T>(budget: string, run: (signal: AbortSignal) => Promise<T>, refuseWhenFull = false) =>
		scheduler.submit({budget, priority: 'action', idempotent: false, run, refuseWhenFull});

	/**
	Opens a log stream on v2's budget: the connect is the request the budget counts (a 429 waits as the
	budget says and is tried again, as reads are); it resolves once the stream is open, its slot let go,
	with `ended`, which settles when the stream closes. Aborting `signal` closes it, queued or open.
	*/
	const logStream = async (
		target: LogTarget,
		query: LogQuery,
		onLine: (line: LogLine) => void,
		{signal, onBytes}: {readonly signal: AbortSignal; readonly onBytes?: () => void},
		priority: Priority,
	): Promise<{readonly ended: Promise<void>}> => {
		const stream = managementApi.streamLogs;
		if (!stream) {
			throw new ApiError('invalid', 'logs: this service publishes no log streams (REST v2 has them)');
		}

		return scheduler.submit({
			budget: v2BudgetKey,
			priority,
			idempotent: true,
			run: async stopping =>
				new Promise((resolve, reject) => {
					if (signal.aborted) {
						reject(new ApiError('aborted', 'logs: cancelled'));
						return;
					}

					// Closed by the caller or by podtop shutting down; both listeners go once the stream has closed.
					const both = new AbortController();
					const abort = () => {
						both.abort();
					};

					signal.addEventListener('abort', abort, {once: true});
					stopping.addEventListener('abort', abort, {once: true});
					let opened = false;
					const ended = stream(target, query, onLine, {
						signal: both.signal,
						onBytes,
						onOpen() {
							opened = true;
							resolve({ended});
						},
					}).finally(() => {
						signal.removeEventListener('abort', abort);
						stopping.removeEventListener('abort', abort);
					});
					ended.then(
						() => {
							if (!opened) {
								resolve({ended});
							}
						},
						(error: unknown) => {
							if (!opened) {
								// eslint-disable-next-line @typescript-eslint/prefer-promise-reject-errors -- an ApiError, passed on as the stream threw it
								reject(error);
							}
						},
					);
				}),
		});
	};

	return {
		logStream,
		health: async (endpointId: string, priority: Priority) =>
			read(budgetKey(endpointId, 'health'), `health:${endpointId}`, priority, async signal => jobApi.health(endpointId, {signal})),
		status: async (endpointId: string, jobId: string, priority: Priority) =>
			read(budgetKey(endpointId, 'status'), `status:${endpointId}/${jobId}`, priority, async signal => jobApi.status(endpointId, jobId, {signal})),
		stream: async (endpointId: string, jobId: string, priority: Priority) =>
			read(budgetKey(endpointId, 'stream'), `stream:${endpointId}/${jobId}`, priority, async signal => jobApi.stream(endpointId, jobId, {signal})),
		endpoints: async (priority: Priority) => read(managementBudget(), 'endpoints', priority, async signal => managementApi.endpoints({signal})),
		endpointsAndDiscount: async (priority: Priority) =>
			read(managementBudget(), 'endpoints+discount', priority, async signal => managementApi.endpointsAndDiscount({signal})),
		pods: async (priority: Priority) => read(managementBudget(), 'pods', priority, async signal => managementApi.pods({signal})),
		readsPodsApart,
		/** The pods on screen, fresher than the list of thousands they are part of. */
		podsById: async (podIds: readonly string[], priority: Priority) =>
			read(managementBudget(), `pods-by-id:${podIds.join(',')}`, priority, async signal => managementApi.podsById(podIds, {signal})),
		podSummaries: async (priority: Priority) => read(managementBudget(), 'pod-summaries', priority, async signal => managementApi.podSummaries({signal})),
		gpuTypes: async (priority: Priority) => read(managementBudget(), 'gpuTypes', priority, async signal => managementApi.gpuTypes({signal})),

		run: async (endpointId: string, request: JobRequest) => write(budgetKey(endpointId, 'run'), async signal => jobApi.run(endpointId, request, {signal})),
		runSync: async (endpointId: string, request: JobRequest, waitMs?: number) =>
			write(budgetKey(endpointId, 'runsync'), async signal => jobApi.runSync(endpointId, request, {signal, waitMs})),
		cancel: async (endpointId: string, jobId: string) => write(budgetKey(endpointId, 'cancel'), async signal => jobApi.cancel(endpointId, jobId, {signal})),
		/** `/compat/*`: the model list is a read; a chat runs a job on the endpoint, so it goes out once. */
		compatModels: async (endpointId: string) =>
			read(budgetKey(endpointId, 'compat'), `models:${endpointId}`, 'action', async signal => compatApi.models(endpointId, {signal})),
		chat: async (endpointId: string, request: Parameters<CompatApi['chat']>[1], onText: (text: string) => void) =>
			write(budgetKey(endpointId, 'compat'), async signal => compatApi.chat(endpointId, request, {signal, onText})),
		retry: async (endpointId: string, jobId: string) => write(budgetKey(endpointId, 'retry'), async signal => jobApi.retry(endpointId, jobId, {signal})),
		// The service allows 2 purges per 10 s: a third is refused here, with the wait, and never queued.
		purgeQueue: async (endpointId: string) => write(budgetKey(endpointId, 'purge-queue'), async signal => jobApi.purgeQueue(endpointId, {signal}), true),
		saveEndpoint: async (input: EndpointInput) => write(managementBudget(), async signal => managementApi.saveEndpoint(input, {signal})),
		/** Only what changed: a PATCH over v2; over GraphQL the record read whole and sent back changed (two requests, one slot). */
		updateEndpoint: async (id: string, changes: EndpointChanges) =>
			write(managementBudget(), async signal => managementApi.updateEndpoint!(id, changes, {signal})),
		deleteEndpoint: async (id: string) => write(managementBudget(), async signal => managementApi.deleteEndpoint(id, {signal})),
		deployOnDemand: async (input: PodDeployInput) => write(managementBudget(), async signal => managementApi.deployOnDemand(input, {signal})),
		stopPod: async (podId: string) => write(managementBudget(), async signal => managementApi.stop(podId, {signal})),
		resumePod: async (podId: string, gpuCount?: number) => write(managementBudget(), async signal => managementApi.resume(podId, gpuCount, {signal})),
		rentInterruptable: async (input: PodDeployInput & {readonly bidPerGpu: number}) =>
			write(managementBudget(), async signal => managementApi.rentInterruptable(input, {signal})),
		/** A GPU type's offer for a count and cloud, read now (a deploy's minimum bid and stock). */
		offer: async (gpuTypeId: string, gpuCount: number, secureCloud?: boolean) =>
			read(managementBudget(), `offer:${gpuTypeId}:${gpuCount}:${String(secureCloud)}`, 'action', async signal =>
				(await managementApi.gpuTypes({signal, gpuCount, secureCloud})).find(type => type.id === gpuTypeId),
			),
		terminatePod: async (podId: string) => write(managementBudget(), async signal => managementApi.terminate(podId, {signal})),
		bidResumePod: async (podId: string, bidPerGpu: number, gpuCount?: number) =>
			write(managementBudget(), async signal => managementApi.bidResume(podId, bidPerGpu, gpuCount, {signal})),
		/** Read just before an edit: the whole record, which the save sends back. */
		endpointForEdit: async (id: string) =>
			read(managementBudget(), `endpoint-edit:${id}`, 'action', async signal => managementApi.endpointForEdit(id, {signal})),
		pod: async (podId: string) => read(managementBudget(), `pod:${podId}`, 'action', async signal => managementApi.pod(podId, {signal})),
		/** Whether the management API in use publishes workers and releases (REST v2 does; GraphQL, or a fall back to it, does not). */
		workersPublished: () => managementApi.workers !== undefined && managementBudget() === v2BudgetKey,
		/** An endpoint's workers (REST v2 only: undefined where the API does not publish them, or the endpoint is gone). */
		workers: async (endpointId: string, priority: Priority) =>
			managementApi.workers ? read(v2BudgetKey, `workers:${endpointId}`, priority, async signal => managementApi.workers!(endpointId, {signal})) : undefined,
		/** The balance and spend per hour (GraphQL's, on its budget; `not-published` once it is gone). */
		balance: async (priority: Priority) =>
			managementApi.balance ? read('graphql', 'balance', priority, async signal => managementApi.balance!({signal})) : ('not-published' as const),
		/** The account's bills (REST v2 only: undefined where the API does not publish them). Bills change every 5 minutes. */
		spend: async (query: SpendQuery, priority: Priority) =>
			managementApi.spend ? read(v2BudgetKey, `spend:${spendKey(query)}`, priority, async signal => managementApi.spend!(query, {signal})) : undefined,
		resourceSpend: async (kind: SpendResourceKind, query: SpendQuery, priority: Priority) =>
			managementApi.resourceSpend
				? read(v2BudgetKey, `spend:${kind}:${spendKey(query)}`, priority, async signal => managementApi.resourceSpend!(kind, query, {signal}))
				: undefined,
		releases: async (endpointId: string, priority: Priority) =>
			managementApi.releases ? read(v2BudgetKey, `releases:${endpointId}`, priority, async signal => managementApi.releases!(endpointId, {signal})) : undefined,
	};
}

export type ScheduledApi = ReturnType<typeof createScheduledApi>;
