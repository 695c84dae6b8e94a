import type {SimClock, SimTimer} from './clock.js';
import {type Endpoint, asyncRetention} from './endpoint.js';
import {policyDefaults} from './job-request.js';
import type {Random} from './random.js';
import type {WorkerKind} from './workers/index.js';

const prompts = [
	'a lighthouse on a basalt cliff at dusk',
	'isometric server room, soft light',
	'portrait of an astronaut cat, film grain',
	'Summarise the incident report in three bullet points.',
	'Write a haiku about GPU queues.',
	'Translate to French: the deployment finished.',
];

function inputFor(kind: WorkerKind, random: Random): Record<string, unknown> {
	switch (kind) {
		case 'text-generation': {
			return {prompt: random.pick(prompts), max_tokens: random.int(40, 400), temperature: 0.7};
		}

		case 'flux-dev':
		case 'flux-schnell': {
			// About one request in twenty has a bad size, as real traffic does.
			const width = random.chance(0.05) ? 1000 : random.pick([512, 768, 1024, 1280]);
			return {prompt: random.pick(prompts), width, height: random.pick([512, 768, 1024]), seed: -1};
		}

		case 'slow': {
			return {video_url: 'https://example.com/clip.mp4', scale: 2};
		}

		default: {
			return {prompt: random.pick(prompts), texts: Array.from({length: random.int(1, 8)}, () => random.pick(prompts))};
		}
	}
}

/** Queues longer than this stop receiving background load, so memory stays bounded. */
const maxBackgroundQueue = 200;

/**
Keeps queues moving so the demo is alive: Poisson arrivals per endpoint at its `loadPerMinute`,
swinging slowly around that rate, with occasional bursts that make the scaler work.
*/
export class LoadGenerator {
	readonly #clock: SimClock;
	readonly #random: Random;
	readonly #timers = new Map<Endpoint, SimTimer>();
	readonly #phase = new Map<Endpoint, number>();

	constructor(clock: SimClock, random: Random) {
		this.#clock = clock;
		this.#random = random;
	}

	add(endpoint: Endpoint): void {
		if (endpoint.spec.loadPerMinute > 0 && !this.#timers.has(endpoint)) {
			this.#phase.set(endpoint, this.#random.between(0, Math.PI * 2));
			this.#next(endpoint);
		}
	}

	remove(endpoint: Endpoint): void {
		this.#timers.get(endpoint)?.cancel();
		this.#timers.delete(endpoint);
		this.#phase.delete(endpoint);
	}

	close(): void {
		for (const timer of this.#timers.values()) {
			timer.cancel();
		}

		this.#timers.clear();
	}

	#rate(endpoint: Endpoint): number {
		const minutes = this.#clock.now() / 60_000;
		const swing = 1 + 0.6 * Math.sin((minutes / 7) * Math.PI * 2 + this.#phase.get(endpoint)!);
		const burst = Math.sin((minutes / 3) * Math.PI * 2 + this.#phase.get(endpoint)!) > 0.93 ? 4 : 1;
		return (endpoint.spec.loadPerMinute / 60_000) * swing * burst;
	}

	#next(endpoint: Endpoint): void {
		const delay = this.#random.exponential(1 / Math.max(this.#rate(endpoint), 1e-9));
		this.#timers.set(
			endpoint,
			this.#clock.setTimeout(() => {
				if (endpoint.queueLength < maxBackgroundQueue) {
					endpoint.submit(
						{
							input: inputFor(endpoint.spec.worker, this.#random),
							webhook: undefined,
							policy: {executionTimeout: endpoint.spec.executionTimeoutMs, ttl: policyDefaults.ttl, lowPriority: this.#random.chance(0.1)},
						},
						false,
						asyncRetention,
						'load',
					);
				}

				this.#next(endpoint);
			}, delay),
		);
	}
}
