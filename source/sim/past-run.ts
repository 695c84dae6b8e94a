import type {SimTimer} from './clock.js';
import {createPastObserver, pastCadence, type PastCadence} from './past-observation.js';
import type {Simulator} from './simulator.js';

/** Real time one slice of the past may take before the event loop gets a turn (a dashboard in the same process draws meanwhile). */
const sliceMs = 15;

export type PastRun = {
	/** The observations, one NDJSON line each, oldest first. */
	readonly lines: readonly string[];
	/** True once the clock is live. */
	readonly done: () => boolean;
	/** Settles once the clock has reached the present and runs in real time (at once when the run was stopped). */
	readonly present: Promise<void>;
	/** Settles when lines were added or the run ended (a reader streams the past as it is run). */
	readonly changed: () => Promise<void>;
	/** What the run cost: simulated and real milliseconds, timers fired, bytes of observations. */
	readonly figures: () => PastFigures;
	/** Why the run ended early, if it did. */
	readonly error: () => string | undefined;
	readonly stop: () => void;
};

export type PastFigures = {readonly simulatedMs: number; readonly realMs: number; readonly observations: number; readonly bytes: number};

type Options = {
	/** How often each kind is observed (simulated ms); each a multiple of the health's, which is how often an observation is taken. */
	readonly cadence?: PastCadence;
	/** The present to run up to; the wall clock (a moving target, caught up with) when absent. */
	readonly until?: number;
};

/**
Runs the simulator's past: its clock, started that far back, is driven as fast as it goes in slices
(the event loop gets a turn between them), an observation taken at each kind's cadence of simulated time,
until it reaches the present; then the clock goes live. Requests wait for `present` meanwhile.
*/
export function runPast(sim: Simulator, {cadence = pastCadence, until}: Options = {}): PastRun {
	const {clock} = sim;
	const observe = createPastObserver(sim);
	const lines: string[] = [];
	const startedAt = performance.now();
	const from = clock.now();
	let bytes = 0;
	let realMs = 0;
	let done = false;
	let error: string | undefined;
	let observer: SimTimer | undefined;
	let slice: NodeJS.Immediate | undefined;
	let settle = () => {};
	const present = new Promise<void>(resolve => {
		settle = resolve;
	});
	let waiting: Array<() => void> = [];
	const notify = () => {
		const woken = waiting;
		waiting = [];
		for (const wake of woken) {
			wake();
		}
	};

	const everyMs = cadence.healthMs;
	const every = (periodMs: number) => Math.max(1, Math.round(periodMs / everyMs));
	const observeAt = (index: number) => {
		const line = observe({
			endpoints: index % every(cadence.endpointsMs) === 0,
			health: true,
			pods: index % every(cadence.podsMs) === 0,
			gpuTypes: index % every(cadence.gpuTypesMs) === 0,
		});
		lines.push(line);
		bytes += line.length + 1;
		observer = clock.setTimeout(() => {
			observeAt(index + 1);
		}, everyMs);
	};

	const finish = (reason?: string) => {
		if (done) {
			return;
		}

		done = true;
		error = reason;
		clearImmediate(slice);
		observer?.cancel();
		realMs = performance.now() - startedAt;
		clock.goLive();
		settle();
		notify();
	};

	const step = () => {
		slice = undefined;
		try {
			const target = until ?? Date.now();
			const reached = clock.advance(target, sliceMs);
			// Caught up when the wall clock moved less than a couple of milliseconds during the slice.
			if (reached && (until !== undefined || Date.now() - target <= 2)) {
				finish();
				return;
			}
		} catch (error_) {
			finish(error_ instanceof Error ? error_.message : String(error_));
			return;
		}

		if (waiting.length > 0 && lines.length > notified) {
			notified = lines.length;
			notify();
		}

		slice = setImmediate(step);
	};

	let notified = 0;
	observeAt(0);
	slice = setImmediate(step);
	return {
		lines,
		done: () => done,
		present,
		changed: async () =>
			done
				? undefined
				: new Promise<void>(resolve => {
						waiting.push(resolve);
					}),
		figures: () => ({simulatedMs: clock.now() - from, realMs: done ? realMs : performance.now() - startedAt, observations: lines.length, bytes}),
		error: () => error,
		stop() {
			finish('the simulator closed');
		},
	};
}
