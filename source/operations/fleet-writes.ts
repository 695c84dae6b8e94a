import type {PodRecord} from '../api/graphql-types.js';
import {formatDollarsPerHour} from '../format/numbers.js';
import {sanitizeLine} from '../format/sanitize.js';
import {bidForm, type BidResume} from '../forms/bid-form.js';
import {deployForm, type DeployOrder} from '../forms/deploy-form.js';
import {currentView} from '../view-state/view-state.js';
import {defineOperation, unavailable, type Operation, type OperationContext, type Unavailable} from './operation.js';
import {performFromUi, writeTarget} from './report.js';
import {selectedIn} from './selection.js';

type PodTarget = {readonly podId: string; readonly name: string};
type EndpointTarget = {readonly endpointId: string; readonly name: string};

/** The selected pod of the Pods pane, as a write's target; `refuse` says why its state rules the write out. */
function podTarget(context: OperationContext, refuse: (pod: PodRecord) => string | undefined): PodTarget | Unavailable {
	return writeTarget(
		context,
		() => {
			const view = currentView(context.view.getState());
			const podId = view.type === 'pod' ? view.podId : selectedIn(context, 'pods');
			const pod = podId ? context.store.getState().pods.byId[podId]?.record : undefined;
			if (!pod) {
				return undefined;
			}

			const reason = refuse(pod);
			return reason ? unavailable(reason) : {podId: pod.id, name: sanitizeLine(pod.name || pod.id)};
		},
		'no pod selected',
	);
}

const podOf = (context: OperationContext, podId: string) => context.store.getState().pods.byId[podId]?.record;

/** The lowest spot bid for a pod's GPU type, from the GPUs pane's data (by display name), when known. */
function minimumBid(context: OperationContext, pod: PodRecord | undefined): number | undefined {
	const name = pod?.machine?.gpuDisplayName;
	const gpus = context.store.getState().gpus.byId;
	const type = Object.values(gpus).find(gpu => gpu?.record.displayName === name);
	return type?.record.lowestPrice?.minimumBidPrice ?? undefined;
}

/** The endpoint the user is on, with its workers range. */
function endpointTarget(context: OperationContext): EndpointTarget | Unavailable {
	return writeTarget(
		context,
		() => {
			const view = currentView(context.view.getState());
			const endpointId = view.type === 'endpoint' ? view.endpointId : selectedIn(context, 'endpoints');
			const record = endpointId ? context.store.getState().endpoints.byId[endpointId]?.record : undefined;
			return record ? {endpointId: record.id, name: sanitizeLine(record.name)} : undefined;
		},
		'no endpoint selected',
	);
}

type DeployTarget = {readonly gpuTypeId: string; readonly form?: DeployOrder};

/** The GPU type the user is on: the selected row of the GPUs pane, or the type whose details are open. */
function gpuTarget(context: OperationContext, [named]: readonly string[]): DeployTarget | Unavailable {
	return writeTarget(
		context,
		() => {
			const view = currentView(context.view.getState());
			const gpuTypeId = named ?? (view.type === 'gpu' ? view.gpuId : selectedIn(context, 'gpus'));
			return gpuTypeId && context.store.getState().gpus.byId[gpuTypeId] ? {gpuTypeId} : undefined;
		},
		'no GPU type selected: open the GPUs pane (3) and pick one',
	);
}

/** Stop, resume and terminate pods; delete endpoints (scaling them to zero first when they need it). */
export const fleetWriteOperations: readonly Operation[] = [
	defineOperation<DeployTarget>({
		id: 'pod.deploy',
		title: 'deploy a pod on this GPU type: cloud, count, on demand or spot, image, disks, ports, env',
		keys: ['d'],
		scope: ['gpus', 'gpu'],
		danger: 'write',
		palette: {name: 'deploy'},
		target: gpuTarget,
		form({gpuTypeId}, context) {
			const gpu = context.store.getState().gpus.byId[gpuTypeId]?.record;
			return gpu ? {spec: deployForm(gpu), draftKey: `deploy:${gpuTypeId}`, title: `Deploy a pod on ${sanitizeLine(gpu.displayName ?? gpu.id)}`} : undefined;
		},
		confirm: ({form}) => ({prompt: `Deploy ${form?.summary ?? 'this pod'}? It bills from the moment it runs.`}),
		async run(context, {gpuTypeId, form}) {
			if (!form) {
				return;
			}

			const result = await performFromUi(context, 'pod.deploy', {gpuTypeId}, {deploy: form.deploy, bidPerGpu: form.bidPerGpu}, `deploying ${form.summary}`);
			if (result?.outcome === 'ok' && result.value) {
				context.view.dispatch({type: 'select', pane: 'pods', key: result.value.id});
			} else if (result?.outcome === 'refused' && /no longer any instances/i.test(result.message)) {
				const stock = context.store.getState().gpus.byId[gpuTypeId]?.record.lowestPrice;
				context.view.dispatch({
					type: 'message',
					text: `no instances available for ${form.summary}: stock ${sanitizeLine(stock?.stockStatus ?? 'unknown')}, ${stock?.maxUnreservedGpuCount ?? '?'} GPU(s) unreserved; try fewer GPUs, the other cloud, or another type`,
					tone: 'bad',
				});
			}
		},
	}),
	defineOperation<PodTarget>({
		id: 'pod.stop',
		title: 'stop the pod (container disk wiped, volume kept)',
		keys: ['x'],
		scope: ['pods', 'pod'],
		danger: 'write',
		target: context =>
			podTarget(context, pod => (pod.desiredStatus === 'RUNNING' ? undefined : `${sanitizeLine(pod.name ?? pod.id)} is not running: nothing to stop`)),
		confirm: ({name}) => ({prompt: `Stop pod ${name}? Its container disk is wiped; its volume is kept.`}),
		async run(context, {podId, name}) {
			await performFromUi(context, 'pod.stop', {podId}, undefined, `stopping ${name}`);
		},
	}),
	defineOperation<PodTarget & {readonly form?: BidResume}>({
		id: 'pod.resume',
		title: 'resume the pod (a spot pod asks for its bid)',
		keys: ['u'],
		scope: ['pods', 'pod'],
		danger: 'write',
		target: context => podTarget(context, pod => (pod.desiredStatus === 'RUNNING' ? `${sanitizeLine(pod.name ?? pod.id)} is running already` : undefined)),
		// Only spot pods have a form: the bid.
		form(target, context) {
			const pod = podOf(context, target.podId);
			if (pod?.podType !== 'INTERRUPTABLE') {
				return undefined;
			}

			return {
				spec: bidForm({minimumBid: minimumBid(context, pod), gpuCount: pod?.gpuCount ?? 1}),
				draftKey: `bid:${target.podId}`,
				title: `Resume spot pod ${target.name}`,
			};
		},
		confirm: ({name, form, podId}, context) => ({
			prompt: form
				? `Resume spot pod ${name} at ${form.summary}?`
				: `Resume pod ${name} (${formatDollarsPerHour(podOf(context, podId)?.costPerHr)} when it runs)?`,
		}),
		async run(context, {podId, name, form}) {
			await (form
				? performFromUi(context, 'pod.bid-resume', {podId}, {bidPerGpu: form.bidPerGpu, gpuCount: form.gpuCount}, `resuming ${name}`)
				: performFromUi(context, 'pod.resume', {podId}, {}, `resuming ${name}`));
		},
	}),
	defineOperation<PodTarget>({
		id: 'pod.terminate',
		title: 'terminate the pod for good (its volume is lost)',
		keys: ['ctrl-d'],
		scope: ['pods', 'pod'],
		danger: 'destructive',
		target: context => podTarget(context, () => undefined),
		confirm: ({name}) => ({prompt: `Terminate pod ${name}? Its volume is lost for good.`, typeToConfirm: name}),
		async run(context, {podId, name}) {
			await performFromUi(context, 'pod.terminate', {podId}, undefined, `terminating ${name}`);
		},
	}),
	defineOperation<EndpointTarget>({
		id: 'endpoint.delete',
		title: 'delete the endpoint (offers to scale it to zero first)',
		keys: ['ctrl-d'],
		scope: ['endpoints', 'endpoint'],
		danger: 'destructive',
		target: endpointTarget,
		confirm({endpointId, name}, context) {
			const record = context.store.getState().endpoints.byId[endpointId]?.record;
			if (record && (record.workersMin !== 0 || record.workersMax !== 0)) {
				return {
					prompt: `${name} has workers (min ${record.workersMin ?? '?'}, max ${record.workersMax ?? '?'}); the service deletes only at 0 and 0. Scale it to zero first?`,
				};
			}

			return {prompt: `Delete endpoint ${name}? Its jobs and workers go with it.`, typeToConfirm: name};
		},
		async run(context, target) {
			const record = context.store.getState().endpoints.byId[target.endpointId]?.record;
			if (record && (record.workersMin !== 0 || record.workersMax !== 0)) {
				// The y above was for the scale, a write of its own; the delete asks again, by name.
				const scaled = await performFromUi(
					context,
					'endpoint.scale',
					{endpointId: target.endpointId},
					{workersMin: 0, workersMax: 0},
					`scaling ${target.name} to zero`,
				);
				if (scaled?.outcome === 'ok') {
					context.view.dispatch({
						type: 'confirm',
						operationId: 'endpoint.delete.confirmed',
						target,
						prompt: `Scaled to zero. Delete endpoint ${target.name}? Its jobs and workers go with it.`,
						typeToConfirm: target.name,
					});
				}

				return;
			}

			await performFromUi(context, 'endpoint.delete', {endpointId: target.endpointId}, undefined, `deleting ${target.name}`);
		},
	}),
	defineOperation<EndpointTarget>({
		id: 'endpoint.delete.confirmed',
		title: 'delete the endpoint, once scaled to zero',
		keys: [],
		scope: ['endpoints', 'endpoint'],
		danger: 'destructive',
		palette: {name: 'delete-endpoint', args: ['endpoint']},
		target: endpointTarget,
		confirm: ({name}) => ({prompt: `Delete endpoint ${name}? Its jobs and workers go with it.`, typeToConfirm: name}),
		async run(context, {endpointId, name}) {
			await performFromUi(context, 'endpoint.delete', {endpointId}, undefined, `deleting ${name}`);
		},
	}),
	defineOperation<EndpointTarget & {readonly workersMin: number; readonly workersMax: number}>({
		id: 'endpoint.scale',
		title: 'scale the endpoint: :scale <min> <max> workers',
		keys: [],
		scope: ['endpoints', 'endpoint'],
		danger: 'write',
		palette: {name: 'scale'},
		target(context, [min, max, ...rest]) {
			const workersMin = Number(min);
			const workersMax = Number(max);
			if (rest.length > 0 || !Number.isInteger(workersMin) || !Number.isInteger(workersMax) || workersMin < 0 || workersMax > 100 || workersMin > workersMax) {
				return unavailable('usage: :scale <min> <max>, whole numbers of workers, 0 ≤ min ≤ max ≤ 100');
			}

			const endpoint = endpointTarget(context);
			return 'unavailable' in endpoint ? endpoint : {...endpoint, workersMin, workersMax};
		},
		confirm: ({name, workersMin, workersMax}) => ({prompt: `Scale ${name} to ${workersMin}–${workersMax} workers?`}),
		async run(context, {endpointId, name, workersMin, workersMax}) {
			await performFromUi(context, 'endpoint.scale', {endpointId}, {workersMin, workersMax}, `scaling ${name}`);
		},
	}),
];
