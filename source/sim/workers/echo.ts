import {runSteps, type Step, type WorkerHandler} from './handler.js';

/**
Returns its input. Tests steer it through the input: `delay_ms` (simulated run time),
`stream` (a list of values to yield, spread over the run), `error` (a string: the job FAILS with it).
*/
export const echoWorker: WorkerHandler = (input, context) => {
	const delay = typeof input.delay_ms === 'number' && input.delay_ms >= 0 ? input.delay_ms : context.random.int(50, 400);
	const yields = Array.isArray(input.stream) ? input.stream : [];
	const stepMs = delay / (yields.length + 1);
	const steps: Step[] = yields.map(output => ({
		afterMs: stepMs,
		run() {
			context.yield(output);
		},
	}));
	steps.push({
		afterMs: stepMs,
		run() {
			if (typeof input.error === 'string') {
				context.fail(input.error);
			} else {
				context.complete(input);
			}
		},
	});
	return runSteps(context.clock, steps);
};
