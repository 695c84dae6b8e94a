import {diagnosisVerdict} from '../store/diagnosis-verdict.js';
import {diagnosisWord, endpointDiagnosis} from '../store/endpoint-diagnosis.js';
import type {PodtopState} from '../store/state.js';

/** A diagnosis that changed, as `watch --jsonl` prints it. */
export type DiagnosisEvent = {
	readonly type: 'diagnosis';
	readonly at: string;
	readonly endpointId: string;
	/** The verdict in a word (`crash loop`, `stuck`), empty once nothing is wrong. */
	readonly word: string;
	readonly queue: number | undefined;
	readonly unservedMs: number | undefined;
	readonly findings: ReadonlyArray<{readonly kind: string; readonly text: string}>;
};

/**
The diagnoses' changes for `watch`: each endpoint's verdict (the kinds found, or stuck) is compared with
the last one told, and a change is one event with the figures read then. Figures that move on alone (how
long jobs waited) are not a change.
*/
export function createDiagnosisEvents() {
	const told = new Map<string, string>();
	return (state: PodtopState, now: number): DiagnosisEvent[] => {
		const events: DiagnosisEvent[] = [];
		for (const endpointId of state.endpoints.order) {
			const diagnosis = endpointDiagnosis(state, endpointId, now);
			if (!diagnosis) {
				continue;
			}

			const verdict = diagnosisVerdict(diagnosis);
			if ((told.get(endpointId) ?? '') === verdict) {
				continue;
			}

			told.set(endpointId, verdict);
			events.push({
				type: 'diagnosis',
				at: new Date(now).toISOString(),
				endpointId,
				word: diagnosisWord(diagnosis),
				queue: diagnosis.queue,
				unservedMs: diagnosis.unservedMs,
				findings: diagnosis.findings.map(({kind, text}) => ({kind, text})),
			});
		}

		return events;
	};
}
