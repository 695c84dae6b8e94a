import type {SimPod} from '../pods/pod.js';

export type RestPodStatus = 'PROVISIONING' | 'STARTING' | 'RUNNING' | 'EXITED' | 'ERROR' | 'TERMINATED';
export type PodAction = 'start' | 'stop' | 'restart' | 'terminate';

/** A new pod is allocated for this long (simulated ms), then its container starts for `startingMs`. */
export const provisioningMs = 10_000;
export const startingMs = 20_000;

/** An image the simulator cannot start (`acme/broken:1`, `broken-app`): its pod ends in ERROR once it has started. */
const brokenImage = /(?:^|[/:-])broken(?:$|[:-])/;

/**
A pod's v2 status from the simulator's lifecycle: a pod created moments ago is PROVISIONING, then
STARTING (as is one just resumed or restarted), then RUNNING, or ERROR for an image that cannot run;
a stopped one EXITED.
*/
export function podStatus(pod: SimPod, now: number): RestPodStatus {
	if (pod.desiredStatus === 'TERMINATED') {
		return 'TERMINATED';
	}

	if (pod.desiredStatus !== 'RUNNING' || pod.startedAt === undefined) {
		return 'EXITED';
	}

	const age = now - pod.startedAt;
	const isNew = pod.version === 0 && pod.createdAt !== undefined;
	if (isNew && age < provisioningMs) {
		return 'PROVISIONING';
	}

	if (age < (isNew ? provisioningMs : 0) + startingMs) {
		return 'STARTING';
	}

	return brokenImage.test(pod.imageName) ? 'ERROR' : 'RUNNING';
}

const actionsByStatus: Readonly<Record<RestPodStatus, readonly PodAction[]>> = {
	PROVISIONING: ['terminate'],
	STARTING: ['stop', 'terminate'],
	RUNNING: ['stop', 'restart', 'terminate'],
	ERROR: ['stop', 'restart', 'terminate'],
	EXITED: ['start', 'terminate'],
	TERMINATED: [],
};

/** The transitions valid now; a locked pod cannot be stopped or restarted. */
export function podActions(pod: SimPod, status: RestPodStatus): PodAction[] {
	return actionsByStatus[status].filter(action => !(pod.locked && (action === 'stop' || action === 'restart')));
}
