import type {PodtopState} from '../store/state.js';
import type {FiringAlert} from '../store/types.js';
import type {Sample} from './fields.js';

/** The account as one series: the running pods' $/h and counts; its state lists the alerts firing (ids). */
export function accountSample(state: PodtopState): Sample {
	let runningCost = 0;
	let running = 0;
	for (const id of state.pods.order) {
		const record = state.pods.byId[id]?.record;
		if (record?.desiredStatus === 'RUNNING') {
			running++;
			runningCost += record.costPerHr ?? 0;
		}
	}

	return {
		state: state.alerts.length > 0 ? JSON.stringify(state.alerts.map(alert => alert.id)) : undefined,
		values: [Math.round(runningCost * 10_000) / 10_000, running, state.pods.order.length, state.endpoints.order.length, state.alerts.length],
	};
}

/** What an alert's events carry: enough to show it again as it was. */
export const alertData = (alert: FiringAlert) => ({...alert});
