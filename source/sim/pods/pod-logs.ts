import type {SimClock, SimTimer} from '../clock.js';
import {LogRing} from '../logs/log-ring.js';
import type {Random} from '../random.js';
import type {SimPod} from './pod.js';

/** How often a running pod's app writes a line (simulated ms, on average). */
const appLineMs = 20_000;

/** What a pod's app prints as it starts, by what it runs. */
function appStartLines(pod: SimPod): string[] {
	switch (pod.pattern) {
		case 'training': {
			return ['Loading dataset shards: 100%|██████████| 8/8', `Starting training on ${pod.gpuCount} GPU(s)`];
		}

		case 'inference': {
			return ['INFO:     Started server process [1]', 'INFO:     Uvicorn running on http://0.0.0.0:8000 (Press CTRL+C to quit)'];
		}

		case 'notebook': {
			return ['[I ServerApp] Jupyter Server 2.14.2 is running at:', '[I ServerApp] http://localhost:8888/lab'];
		}

		default: {
			return ['Pod started, idling (sleep infinity)'];
		}
	}
}

function appLine(pod: SimPod, random: Random, step: number): string {
	switch (pod.pattern) {
		case 'training': {
			return `{'loss': ${random.between(0.4, 2.2).toFixed(4)}, 'learning_rate': 2e-05, 'epoch': ${(step / 500).toFixed(2)}, 'step': ${step}}`;
		}

		case 'inference': {
			return `INFO:     10.0.${random.int(0, 9)}.${random.int(2, 250)}:0 - "POST /v1/chat/completions HTTP/1.1" 200 OK`;
		}

		case 'notebook': {
			return `[I ServerApp] Saving file at /workspace/notebook-${random.int(1, 4)}.ipynb`;
		}

		default: {
			return 'heartbeat';
		}
	}
}

/**
Every pod's log: system lines as it boots, stops and restarts (image pull, container start and exit), and
its app's lines while it runs, one timer for the fleet. Ends (and is forgotten) when the pod is terminated.
*/
export class PodLogs {
	readonly #rings = new Map<string, LogRing>();
	readonly #clock: SimClock;
	readonly #random: Random;
	readonly #running: () => Iterable<SimPod>;
	#timer?: SimTimer;
	#step = 0;

	constructor(clock: SimClock, random: Random, running: () => Iterable<SimPod>) {
		this.#clock = clock;
		this.#random = random;
		this.#running = running;
		this.#schedule();
	}

	/** The pod's log (made on first use). */
	of(pod: SimPod): LogRing {
		let ring = this.#rings.get(pod.id);
		if (!ring) {
			ring = new LogRing();
			this.#rings.set(pod.id, ring);
		}

		return ring;
	}

	/** The container (re)starts at `at`: pull, start, the app's first lines. */
	booted(pod: SimPod, at: number): void {
		const ring = this.of(pod);
		// Spread over the boot when it is past; never after now.
		const after = (ms: number) => Math.min(at + ms, Math.max(at, this.#clock.now()));
		ring.write(at, 'system', `Pulling image ${pod.imageName}`);
		ring.write(after(4000), 'system', 'Image pulled');
		ring.write(after(4500), 'system', 'Starting container');
		for (const line of appStartLines(pod)) {
			ring.write(after(6000), 'container', line);
		}
	}

	stopped(pod: SimPod, reason: string): void {
		const now = this.#clock.now();
		this.of(pod).write(now, 'system', `Stopping container: ${reason}`);
		this.of(pod).write(now, 'system', 'Container exited with code 0');
	}

	/** The pod is gone: its streams end, and it is 404 from now on. */
	terminated(pod: SimPod): void {
		this.stopped(pod, 'terminated');
		this.of(pod).close();
		this.#rings.delete(pod.id);
	}

	close(): void {
		this.#timer?.cancel();
		for (const ring of this.#rings.values()) {
			ring.close();
		}
	}

	#schedule(): void {
		this.#timer = this.#clock.setTimeout(
			() => {
				this.#step += 10;
				const now = this.#clock.now();
				for (const pod of this.#running()) {
					if (pod.desiredStatus === 'RUNNING' && this.#random.chance(0.5)) {
						this.of(pod).write(now, 'container', appLine(pod, this.#random, this.#step));
					}
				}

				this.#schedule();
			},
			Math.max(appLineMs / 2, this.#clock.speed * 50),
		);
	}
}
