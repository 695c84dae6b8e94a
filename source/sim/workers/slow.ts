import {runSteps, type Step, type WorkerHandler} from './handler.js';

/**
A video worker that reports progress and often needs longer than the endpoint's execution
timeout (10 to 90 simulated seconds against a 45-second timeout in the demo fleet).
*/
export const slowWorker: WorkerHandler = (input, context) => {
	const {random} = context;
	const seconds = typeof input.seconds === 'number' && input.seconds > 0 ? input.seconds : random.int(10, 90);
	const ticks = Math.max(1, Math.floor(seconds / 5));
	const steps: Step[] = Array.from({length: ticks}, (_, index) => ({
		afterMs: (seconds * 1000) / (ticks + 1),
		run() {
			context.yield({progress: Math.round(((index + 1) / (ticks + 1)) * 100) / 100, stage: 'upscaling'});
		},
	}));
	steps.push({
		afterMs: (seconds * 1000) / (ticks + 1),
		run() {
			context.complete({video_url: `${context.baseUrl}/__sim/outputs/${context.jobId}.mp4`, frames: Math.round(seconds * 24)});
		},
	});
	return runSteps(context.clock, steps);
};
