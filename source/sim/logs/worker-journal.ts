import type {EndpointSpec} from '../endpoint-spec.js';
import type {Job} from '../job.js';
import type {Random} from '../random.js';
import type {LogRing} from './log-ring.js';

/** What the journal needs of a worker: where it writes and what it runs on. */
export type JournalWorker = {
	readonly id: string;
	readonly image: string;
	readonly version: number;
	readonly logs: LogRing;
	readonly gpuTypeId?: string;
	readonly dataCenterId?: string;
};

const sdkVersion = '1.7.9';
/** A line the serverless SDK prints for a job: JSON with the job's id, as runpod-python's logger writes it. */
const sdkLine = (jobId: string, message: string, level = 'INFO') => JSON.stringify({requestId: jobId, message, level});

/** What the container prints while its model loads, per worker kind. */
function modelLoadLines(spec: EndpointSpec, random: Random, loadMs: number): string[] {
	const model = spec.env.find(({key}) => key === 'MODEL_NAME' || key === 'MODEL_NAMES')?.value ?? spec.name;
	switch (spec.worker) {
		case 'text-generation': {
			const gigabytes = random.between(4, 40 * spec.gpuCount).toFixed(2);
			return [
				`INFO vllm.engine: Initializing an LLM engine (v0.6.4) with config: model='${model}', tensor_parallel_size=${spec.gpuCount}`,
				`INFO vllm.worker: Loading model weights took ${gigabytes} GB`,
				`INFO vllm.executor: # GPU blocks: ${random.int(2000, 30_000)}, # CPU blocks: 2048`,
			];
		}

		case 'flux-dev':
		case 'flux-schnell': {
			return [`Loading pipeline components...: 100%|██████████| 7/7 [00:${String(random.int(10, 59)).padStart(2, '0')}<00:00]`, 'FluxPipeline ready (bf16)'];
		}

		default: {
			return [`Loading ${model}`, `Model loaded in ${(loadMs / 1000).toFixed(1)}s`];
		}
	}
}

/**
The lines a serverless worker writes, as the service shows them: `system` lines from the host (placement,
image pull, container start and stop) and `container` lines from the worker (SDK start, model load, each
job's lines with its id, errors).
*/
export class WorkerJournal {
	readonly #random: Random;
	readonly #spec: () => EndpointSpec;

	constructor(random: Random, spec: () => EndpointSpec) {
		this.#random = random;
		this.#spec = spec;
	}

	/** Asked for a worker before a GPU was free. */
	throttled(worker: JournalWorker, now: number): void {
		worker.logs.write(now, 'system', `Waiting for capacity: no ${this.#spec().gpuIds} GPU free in the selected data centers`);
	}

	/** A cold start begins: placed on a host, the image pulled (or a FlashBoot snapshot restored). */
	placed(worker: JournalWorker, now: number): void {
		const spec = this.#spec();
		worker.logs.write(
			now,
			'system',
			`Worker ${worker.id} placed on ${spec.gpuCount}x ${worker.gpuTypeId ?? 'GPU'} in ${worker.dataCenterId ?? 'unknown'} (release v${worker.version})`,
		);
		worker.logs.write(now, 'system', spec.flashBoot ? `Restoring FlashBoot snapshot of ${worker.image}` : `Pulling image ${worker.image}`);
	}

	/** The container starts and the worker loads its model; lines spread over the cold start, from `from` to `now`. */
	containerStarted(worker: JournalWorker, from: number, now: number, loadModel = true): void {
		const spec = this.#spec();
		const span = Math.max(0, now - from);
		const at = (share: number) => from + Math.round(span * share);
		const pulled = spec.flashBoot ? 'Snapshot restored' : `Image pulled (${this.#random.between(2, 14).toFixed(2)} GB)`;
		worker.logs.write(at(0.3), 'system', `${pulled} in ${((span * 0.3) / 1000).toFixed(1)}s`);
		worker.logs.write(at(0.35), 'system', 'Starting container');
		worker.logs.write(at(0.4), 'container', `--- Starting Serverless Worker |  Version ${sdkVersion} ---`);
		if (!loadModel) {
			return;
		}

		const lines = modelLoadLines(spec, this.#random, span * 0.5);
		for (const [index, line] of lines.entries()) {
			worker.logs.write(at(0.45 + (0.5 * index) / lines.length), 'container', line);
		}
	}

	ready(worker: JournalWorker, now: number): void {
		worker.logs.write(now, 'container', `Worker ready. Polling for jobs (concurrency 1).`);
		worker.logs.write(now, 'system', 'Worker ready');
	}

	jobStarted(worker: JournalWorker, job: Job, now: number): void {
		worker.logs.write(now, 'container', sdkLine(job.id, 'Started.'));
		worker.logs.write(now, 'container', sdkLine(job.id, `Handler received input with ${Object.keys(job.input).length} keys`, 'DEBUG'));
	}

	jobEnded(worker: JournalWorker, job: {readonly id: string; readonly status: string; readonly error?: string; readonly timeoutMs: number}, now: number): void {
		switch (job.status) {
			case 'COMPLETED': {
				worker.logs.write(now, 'container', sdkLine(job.id, 'Finished.'));
				break;
			}

			case 'FAILED': {
				worker.logs.write(now, 'container', sdkLine(job.id, 'Captured Handler Exception', 'ERROR'));
				worker.logs.write(now, 'container', sdkLine(job.id, (job.error ?? 'Job failed').slice(0, 2000), 'ERROR'));
				break;
			}

			case 'TIMED_OUT': {
				worker.logs.write(now, 'system', `Job ${job.id} exceeded its execution timeout of ${job.timeoutMs} ms: handler stopped`);
				break;
			}

			default: {
				worker.logs.write(now, 'container', sdkLine(job.id, 'Job cancelled.', 'WARN'));
			}
		}
	}

	unhealthy(worker: JournalWorker, now: number): void {
		worker.logs.write(now, 'container', 'RuntimeError: CUDA error: an illegal memory access was encountered');
		worker.logs.write(now, 'system', 'Health check failed 3 times: worker marked unhealthy');
	}

	/** The worker is stopped: scaled down, replaced by a newer release, or given up on. */
	stopped(worker: JournalWorker, now: number, reason: string): void {
		worker.logs.write(now, 'system', `Stopping worker: ${reason}`);
		worker.logs.write(now, 'system', 'Container stopped');
	}
}
