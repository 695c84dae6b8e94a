import {describeError, keyRefusalStatus} from '../api/errors.js';
import type {StoreWrites} from '../store/create-store.js';
import type {Cadence} from './cadence.js';
import {createLoop, type Loop} from './loop.js';
import type {ScheduledApi} from './scheduled-api.js';

/**
The loop that polls the pod whose details are open (ports, env, per-GPU history) at the visible pods
cadence, and idles when none is; `watch` opens one and returns what closes it.
*/
export function createPodDetailLoop(options: {
	readonly api: ScheduledApi;
	readonly writes: StoreWrites;
	readonly cadence: Cadence;
	readonly now: () => number;
}): {readonly loop: Loop; readonly watch: (podId: string) => () => void} {
	const {api, writes, cadence, now} = options;
	let watched: string | undefined;
	const loop = createLoop(
		async () => {
			const podId = watched;
			if (!podId) {
				return;
			}

			try {
				const record = await api.pod(podId);
				if (watched === podId) {
					writes.setPodDetail(podId, record, now());
				}

				writes.reportSource('graphql', now());
			} catch (error) {
				writes.reportSource('graphql', now(), describeError(error), keyRefusalStatus(error));
			}
		},
		() => (watched ? cadence.podsMs : cadence.healthStalestMs),
	);
	return {
		loop,
		watch(podId) {
			watched = podId;
			loop.trigger();
			return () => {
				if (watched === podId) {
					watched = undefined;
					writes.setPodDetail(undefined, null, now());
				}
			};
		},
	};
}
