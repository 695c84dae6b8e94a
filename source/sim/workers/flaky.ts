import {runSteps, type WorkerHandler} from './handler.js';

const traceback = (error: string, message: string) =>
	JSON.stringify({
		error_type: `<class '${error}'>`,
		error_message: message,
		error_traceback: `Traceback (most recent call last):\n  File "/usr/local/lib/python3.11/site-packages/runpod/serverless/modules/rp_job.py", line 164, in run_job\n    handler_return = handler(job)\n  File "/handler.py", line 41, in handler\n    images = pipe(**params).images\n${error}: ${message}\n`,
		hostname: 'worker-sim',
		runpod_version: '1.7.9',
	});

const failures: ReadonlyArray<{readonly error: string; readonly retries?: number}> = [
	{
		error: traceback(
			'torch.OutOfMemoryError',
			'CUDA out of memory. Tried to allocate 2.00 GiB. GPU 0 has a total capacity of 23.64 GiB of which 1.12 GiB is free.',
		),
	},
	{error: traceback('ValueError', 'Input image must be at most 2048x2048 pixels')},
	{error: traceback('KeyError', "'prompt'")},
	{error: traceback('RuntimeError', 'CUDA error: an illegal memory access was encountered')},
	{error: 'job timed out after 1 retries', retries: 1},
	{error: 'Handler returned an error: upstream storage returned 503 Service Unavailable'},
];

/** An image worker that fails a share of its jobs (about 30 %) with the errors real handlers produce. */
export const flakyWorker: WorkerHandler = (input, context) => {
	const {random} = context;
	const failure = random.chance(0.3) ? random.pick(failures) : undefined;
	return runSteps(context.clock, [
		{
			afterMs: random.int(800, 6000),
			run() {
				if (failure) {
					context.fail(failure.error, failure.retries);
				} else {
					context.complete({images: random.int(1, 4), seed: random.int(0, 2 ** 31), prompt: input.prompt ?? null});
				}
			},
		},
	]);
};
