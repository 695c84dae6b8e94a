import type {SimClock} from '../clock.js';
import type {Random} from '../random.js';

export type ExecutionContext = {
	readonly clock: SimClock;
	readonly random: Random;
	/** Base URL of the simulator, for links in outputs. */
	readonly baseUrl: string;
	readonly jobId: string;
	/** Emits a stream chunk (`{output}` or, with metrics, `{metrics, output}`). */
	readonly yield: (output: unknown, metrics?: Record<string, unknown>) => void;
	readonly complete: (output?: unknown) => void;
	/** Ends the job FAILED; `retries` when the platform retried before giving up. */
	readonly fail: (error: string, retries?: number) => void;
};

/** Starts a job's work and returns a function that stops it (cancel, timeout, expiry). */
export type WorkerHandler = (input: Record<string, unknown>, context: ExecutionContext) => () => void;

export type Step = {readonly afterMs: number; readonly run: () => void};

/**
Runs steps one after another on the simulated clock; the returned function stops the rest. In the
simulated past no client holds a job (none could ask for it): it runs for as long and ends the same
way, but only its last step (the outcome) runs, one timer a job instead of one a chunk, and nothing
it would have yielded is produced.
*/
export function runSteps(clock: SimClock, steps: readonly Step[]): () => void {
	let index = 0;
	let timer: {cancel: () => void} | undefined;
	let stopped = false;
	if (clock.inPast && steps.length > 0) {
		timer = clock.setTimeout(
			() => {
				steps.at(-1)!.run();
			},
			steps.reduce((sum, step) => sum + step.afterMs, 0),
		);
		return () => {
			timer?.cancel();
		};
	}

	const next = () => {
		const step = steps[index++];
		if (!step || stopped) {
			return;
		}

		timer = clock.setTimeout(() => {
			step.run();
			next();
		}, step.afterMs);
	};

	next();
	return () => {
		stopped = true;
		timer?.cancel();
	};
}
