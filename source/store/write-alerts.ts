import {deepEqual} from '../lib/deep-equal.js';
import type {GetState, SetState} from './state.js';
import type {FiringAlert} from './types.js';

export type AlertWrites = {
	readonly setAlerts: (alerts: readonly FiringAlert[]) => void;
};

export function alertWrites(set: SetState, get: GetState): AlertWrites {
	return {
		setAlerts(alerts) {
			if (!deepEqual(get().alerts, alerts)) {
				set({alerts});
			}
		},
	};
}
