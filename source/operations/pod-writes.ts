import type {PodAction, PodRecord} from '../model/pod.js';
import {sanitizeLine} from '../format/sanitize.js';
import {resumeForm, type ResumeOrder} from '../forms/resume-form.js';
import {deployForm, type DeployOrder} from '../forms/deploy-form.js';
import {currentView} from '../view-state/view-state.js';
import {defineOperation, unavailable, type Operation, type OperationContext, type Unavailable} from './operation.js';
import {performFromUi, writeTarget} from './report.js';
import {selectedIn} from './selection.js';

type PodTarget = {readonly podId: string; readonly name: string};
type DeployTarget = {readonly gpuTypeId: string; readonly form?: DeployOrder};

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

/**
Whether the service allows an action in the pod's state now. Over REST v2 the pod lists the
actions it allows, and that list decides; without one (GraphQL), `fallback` judges by the status.
*/
function refusedAction(pod: PodRecord, action: PodAction, fallback: () => string | undefined): string | undefined {
	if (!pod.actions) {
		return fallback();
	}

	if (pod.actions.includes(action)) {
		return undefined;
	}

	const allowed = pod.actions.length > 0 ? `only ${pod.actions.join(', ')} now` : 'no action now';
	return `${sanitizeLine(pod.name ?? pod.id)} is ${sanitizeLine(pod.desiredStatus ?? 'in an unknown state')}: the service allows ${allowed}`;
}

const podOf = (context: OperationContext, podId: string) => context.store.getState().pods.byId[podId]?.record;

/** The lowest spot bid for a pod's GPU type, from the GPUs pane's data (by display name), when known. */
function minimumBid(context: OperationContext, pod: PodRecord | undefined): number | undefined {
	const name = pod?.machine?.gpuDisplayName;
	const gpus = context.store.getState().gpus.byId;
	const type = Object.values(gpus).find(gpu => gpu?.record.displayName === name);
	return type?.record.lowestPrice?.minimumBidPrice ?? undefined;
}

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

/** Deploy, stop, resume and terminate pods: each asks first and goes through `engine.perform`. */
export const podWriteOperations: readonly Operation[] = [
	defineOperation<DeployTarget>({
		id: 'pod.deploy',
		title: 'deploy a pod on this GPU type: cloud, count, on demand or spot, image, disks, ports, env',
		keys: ['d'],
		scope: ['gpus', 'gpu'],
		danger: 'write',
		hint: 'deploy',
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
		hint: 'stop',
		target: context =>
			podTarget(context, pod =>
				refusedAction(pod, 'stop', () => (pod.desiredStatus === 'RUNNING' ? undefined : `${sanitizeLine(pod.name ?? pod.id)} is not running: nothing to stop`)),
			),
		confirm: ({name}) => ({prompt: `Stop pod ${name}? Its container disk is wiped; its volume is kept.`}),
		async run(context, {podId, name}) {
			await performFromUi(context, 'pod.stop', {podId}, undefined, `stopping ${name}`);
		},
	}),
	defineOperation<PodTarget & {readonly form?: ResumeOrder}>({
		id: 'pod.resume',
		title: 'resume the pod: its GPU count, and a spot pod its bid',
		keys: ['u'],
		scope: ['pods', 'pod'],
		danger: 'write',
		hint: 'resume',
		target: context =>
			podTarget(context, pod =>
				refusedAction(pod, 'start', () => (pod.desiredStatus === 'RUNNING' ? `${sanitizeLine(pod.name ?? pod.id)} is running already` : undefined)),
			),
		form(target, context) {
			const pod = podOf(context, target.podId);
			const spot = pod?.podType === 'INTERRUPTABLE';
			const gpuCount = pod?.gpuCount ?? 1;
			return {
				spec: resumeForm({
					spot,
					minimumBid: minimumBid(context, pod),
					gpuCount,
					pricePerGpu: pod?.costPerHr && gpuCount > 0 ? pod.costPerHr / gpuCount : undefined,
				}),
				draftKey: `resume:${target.podId}`,
				title: `Resume ${spot ? 'spot ' : ''}pod ${target.name}`,
			};
		},
		confirm: ({name, form}) => ({prompt: `Resume pod ${name} with ${form?.summary ?? 'its GPUs'}?`}),
		async run(context, {podId, name, form}) {
			if (!form) {
				return;
			}

			await (form.bidPerGpu === undefined
				? performFromUi(context, 'pod.resume', {podId}, {gpuCount: form.gpuCount}, `resuming ${name}`)
				: performFromUi(context, 'pod.bid-resume', {podId}, {bidPerGpu: form.bidPerGpu, gpuCount: form.gpuCount}, `resuming ${name}`));
		},
	}),
	defineOperation<PodTarget>({
		id: 'pod.terminate',
		title: 'terminate the pod for good (its volume is lost)',
		keys: ['ctrl-d'],
		scope: ['pods', 'pod'],
		danger: 'destructive',
		hint: 'terminate',
		target: context => podTarget(context, pod => refusedAction(pod, 'terminate', () => undefined)),
		confirm: ({name}) => ({prompt: `Terminate pod ${name}? Its volume is lost for good.`, typeToConfirm: name}),
		async run(context, {podId, name}) {
			await performFromUi(context, 'pod.terminate', {podId}, undefined, `terminating ${name}`);
		},
	}),
];
