import type {GetState, SetState} from './state.js';
import type {ProbeSample} from './types.js';

/** Probes kept per endpoint: a week of one every 10 minutes, a day and a half of one a minute. */
export const probeLimit = 2000;

export type ProbeWrites = {
	/** Whether probe rules are configured here: the Endpoints pane shows their column then. */
	readonly setProbesConfigured: (configured: boolean) => void;
	/** Probes that ended (or were read back from history), each endpoint's in one write; a probe already held (same job and time) is not added twice. */
	readonly addProbes: (probes: ReadonlyArray<{readonly endpointId: string; readonly probe: ProbeSample}>) => void;
};

const sameProbe = (a: ProbeSample, b: ProbeSample) => a.at === b.at && a.jobId === b.jobId;

export function probeWrites(set: SetState, get: GetState): ProbeWrites {
	return {
		setProbesConfigured(configured) {
			if (get().probes.configured !== configured) {
				set({probes: {...get().probes, configured}});
			}
		},
		addProbes(probes) {
			if (probes.length === 0) {
				return;
			}

			const {probes: current} = get();
			const byEndpoint = {...current.byEndpoint};
			for (const {endpointId, probe} of probes) {
				const list = byEndpoint[endpointId] ?? [];
				if (list.some(each => sameProbe(each, probe))) {
					continue;
				}

				const next = [...list, probe].sort((a, b) => a.at - b.at);
				byEndpoint[endpointId] = next.length > probeLimit ? next.slice(next.length - probeLimit) : next;
			}

			set({probes: {configured: current.configured || probes.length > 0, byEndpoint}});
		},
	};
}
