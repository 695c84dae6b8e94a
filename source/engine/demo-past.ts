import type {Pool} from 'undici';
import {readSimPast, type PastObservation} from '../api/sim-past.js';
import type {AlertRule} from '../config/alert-rules.js';
import type {BackfillTarget} from '../history/open-history.js';
import {createAlertEvaluator} from '../poll/alert-loop.js';

/**
How much of its past the demo simulates, for its charts to hold hours at once. What it costs decides:
each simulated hour of the demo fleet is some 12,000 jobs to run and 240 observations to send and
record, about 0.45 s of the simulator's thread and 0.4 s of this one (`npm run bench`); the first
figures wait for the simulator to reach its present, so 2 h keeps the start within about 1.5 s on two
idle cores, where 6 h would take 3 to 4 s (`--demo-past 6h` for those).
*/
export const demoPastMs = 2 * 3_600_000;

const hourMs = 3_600_000;

/**
Where the demo's world begins: the hour at least `pastMs` before `now`. The simulator's fleet and its
past follow from its seed and this moment alone, so every podtop started within the same hour (a
\`snapshot\`, then a \`snapshot --at 1h\`) sees the same account, its past the same to the millisecond;
the past run is `pastMs` to an hour longer (2 to 3 h: some 1 to 1.5 s of the simulator's thread).
*/
export function demoOrigin(now: number, pastMs: number): number {
	return Math.floor((now - pastMs) / hourMs) * hourMs;
}

/** One observation through the store's writers, as the pollers write a poll's answers, then the alert rules as the alert loop runs them. */
function feed(target: BackfillTarget, observation: PastObservation, evaluate: ((at: number) => void) | undefined): void {
	const {writes} = target;
	const {at} = observation;
	if (observation.endpoints) {
		writes.setDiscount(observation.discount ?? undefined);
		writes.setEndpoints(observation.endpoints, at);
		writes.reportSource('graphql', at);
	}

	if (observation.health) {
		writes.setHealthResults(
			Object.entries(observation.health).map(([endpointId, health]) => ({endpointId, health})),
			at,
		);
		writes.reportSource('jobApi', at);
	}

	if (observation.pods) {
		writes.setPods(observation.pods, at);
	}

	if (observation.gpuTypes) {
		writes.setGpuTypes(observation.gpuTypes, at);
	}

	evaluate?.(at);
	target.flush(at);
}

type Options = {
	/** The pool of the simulator's origin. */
	readonly pool: Pool;
	readonly apiKey: string;
	readonly target: BackfillTarget;
	/** The alert rules in force: they fire and resolve in the past as they would have. */
	readonly rules?: readonly AlertRule[];
	readonly signal: AbortSignal;
};

/**
DEMO: records the built-in simulator's simulated past (`GET /__sim/past`) into history. Each
observation goes, in order, through the real store writers at its simulated moment, into a store
of its own, and the recorder is flushed at that moment: the file holds the hours exactly as if
podtop had been polling them, through the recorder's own code path. Returns how many were recorded.
*/
export async function recordSimulatedPast({pool, apiKey, target, rules, signal}: Options): Promise<number> {
	const evaluator = rules && rules.length > 0 ? createAlertEvaluator(rules) : undefined;
	const evaluate =
		evaluator &&
		((at: number) => {
			target.writes.setAlerts(evaluator(target.store.getState(), at));
		});
	return readSimPast({
		pool,
		apiKey,
		signal,
		onObservation(observation) {
			feed(target, observation, evaluate);
		},
	});
}
