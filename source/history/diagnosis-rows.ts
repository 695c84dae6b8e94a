import {diagnose, verdictSteadyUntil, type DiagnosisInput} from '../store/diagnosis.js';
import {diagnosisVerdict} from '../store/diagnosis-verdict.js';
import {diagnosisInput, diagnosisWord} from '../store/endpoint-diagnosis.js';
import type {PodtopState} from '../store/state.js';
import type {EventRow} from './event-rows.js';

/** What one write adds to the timeline of diagnoses, and what is told once it is committed. */
/** An endpoint's last verdict, what it was made of, and until when the same inputs keep it. */
type Kept = {readonly input: DiagnosisInput; readonly verdict: string; readonly until: number};

const sameInputs = (a: DiagnosisInput, b: DiagnosisInput) =>
	a.endpoint === b.endpoint && a.health === b.health && a.history === b.history && a.workers === b.workers && a.rollout === b.rollout && a.gpus === b.gpus;

export type DiagnosisChanges = {
	readonly events: EventRow[];
	readonly commit: () => void;
};

/**
The diagnoses as timeline events: an endpoint's verdict (its word and the kinds found) is compared with the
last one written, and a change is one `diagnosis` event with the figures read then; a verdict gone is one
that says it cleared. Only the endpoints that changed, have jobs waiting or had a verdict are diagnosed
again (how long a queue waited moves on with no poll).
*/
export function createDiagnosisRows() {
	const told = new Map<string, string>();
	const kept = new Map<string, Kept>();
	/** The endpoints with jobs waiting, by the endpoint list they were read from. */
	let waiting: {readonly endpoints: PodtopState['endpoints']; readonly ids: ReadonlySet<string>} | undefined;
	const waitingIn = (endpoints: PodtopState['endpoints']): ReadonlySet<string> => {
		if (waiting?.endpoints !== endpoints) {
			waiting = {endpoints, ids: new Set(endpoints.order.filter(id => (endpoints.byId[id]?.health?.jobs.inQueue ?? 0) > 0))};
		}

		return waiting.ids;
	};

	return (previous: PodtopState | undefined, next: PodtopState, now: number): DiagnosisChanges => {
		const events: EventRow[] = [];
		const pending = new Map<string, string>();
		const {endpoints, workers} = next;
		// A write that left the endpoints and their workers as they were (the pods', the jobs'): only those with jobs waiting or a
		// verdict told may have changed (by the time passed); the rest are not looked at (at 500 endpoints + 2,000 pods, half the writes were such).
		const unmoved = previous?.endpoints === endpoints && previous.workers.byEndpoint === workers.byEndpoint && previous.workers.rollouts === workers.rollouts;
		const candidates = unmoved ? waitingIn(endpoints) : undefined;
		for (const endpointId of endpoints.order) {
			if (candidates && !candidates.has(endpointId) && !told.has(endpointId)) {
				continue;
			}

			const endpoint = endpoints.byId[endpointId];
			const before = told.get(endpointId) ?? '';
			const moved =
				!previous ||
				previous.endpoints.byId[endpointId] !== endpoint ||
				previous.workers.byEndpoint[endpointId] !== workers.byEndpoint[endpointId] ||
				previous.workers.rollouts[endpointId] !== workers.rollouts[endpointId];
			if (!endpoint || (!moved && before === '' && (endpoint.health?.jobs.inQueue ?? 0) === 0)) {
				continue;
			}

			const input = diagnosisInput(next, endpointId, now);
			if (!input) {
				continue;
			}

			// The same inputs, before the verdict can change by the time passed: it is the one told (the ~110 endpoints with jobs
			// waiting at 500 endpoints + 2,000 pods were each diagnosed again at every write, 17 MB of garbage a minute).
			const last = kept.get(endpointId);
			if (last?.verdict === before && sameInputs(last.input, input) && now >= last.input.now && now < last.until) {
				continue;
			}

			const diagnosis = diagnose(input);
			const verdict = diagnosisVerdict(diagnosis);
			kept.set(endpointId, {input, verdict, until: verdictSteadyUntil(input, diagnosis.unservedMs)});
			if (verdict === before) {
				continue;
			}

			pending.set(endpointId, verdict);
			const {queue, unservedMs, findings} = diagnosis;
			events.push({
				type: 'diagnosis',
				kind: 'endpoint',
				subject: endpointId,
				name: endpoint.record.name || endpointId,
				ref: `diagnosis:${endpointId}`,
				data: {
					word: diagnosisWord(diagnosis),
					...(queue === undefined ? {} : {queue}),
					...(unservedMs === undefined ? {} : {unservedMs}),
					findings: findings.map(({kind, text}) => ({kind, text})),
					...(verdict === '' ? {cleared: true} : {}),
				},
			});
		}

		return {
			events,
			commit() {
				for (const [endpointId, verdict] of pending) {
					if (verdict === '') {
						told.delete(endpointId);
					} else {
						told.set(endpointId, verdict);
					}
				}

				// An endpoint gone from the list is let go (its deletion is an event of its own).
				if (previous?.endpoints !== endpoints) {
					for (const map of [told, kept]) {
						for (const endpointId of map.keys()) {
							if (!endpoints.byId[endpointId]) {
								map.delete(endpointId);
							}
						}
					}
				}
			},
		};
	};
}
