import type {PodtopState} from '../store/state.js';
import type {FiringAlert} from '../store/types.js';
import type {PodRecord} from '../model/pod.js';
import type {Sample} from './fields.js';

/** The running pods' count and $/h, summed in the pods' order. */
export type RunningPods = {running: number; cost: number};

/** Adds a pod to the running pods' figures when it runs. */
export function countRunning(record: PodRecord | undefined, totals: RunningPods): void {
	if (record?.desiredStatus === 'RUNNING') {
		totals.running++;
		totals.cost += record.costPerHr ?? 0;
	}
}

/**
The account as one series: the running pods' $/h and counts; its state lists the alerts firing
(ids). `counted`: the running pods as a walk of all pods in their order just counted them (the
recorder's pass over the pods), else they are counted here.
*/
export function accountSample(state: PodtopState, counted?: RunningPods): Sample {
	let totals = counted;
	if (!totals) {
		totals = {running: 0, cost: 0};
		for (const id of state.pods.order) {
			countRunning(state.pods.byId[id]?.record, totals);
		}
	}

	const {running, cost: runningCost} = totals;
	return {
		state: state.alerts.length > 0 ? JSON.stringify(state.alerts.map(alert => alert.id)) : undefined,
		values: [Math.round(runningCost * 10_000) / 10_000, running, state.pods.order.length, state.endpoints.order.length, state.alerts.length],
	};
}

/** What an alert's events carry: enough to show it again as it was. */
export const alertData = (alert: FiringAlert) => ({...alert});
