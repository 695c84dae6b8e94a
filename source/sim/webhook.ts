import {Agent, request} from 'undici';
import type {SimClock, SimTimer} from './clock.js';
import {toStatusBody, type Job} from './job.js';

export const webhookAttempts = 3;
/** Simulated milliseconds between attempts. */
export const webhookSpacingMs = 10_000;
/** Real milliseconds one attempt may take. */
const attemptTimeoutMs = 5000;

/**
Delivers a job's terminal state to its webhook: the `/status` object plus `input` and `webhook`.
A non-2xx answer or none at all is retried, 3 attempts in all, 10 simulated seconds apart. A failing
receiver never changes the job.
*/
export class WebhookSender {
	readonly #clock: SimClock;
	readonly #pending = new Set<SimTimer>();
	readonly #inFlight = new Set<AbortController>();
	readonly #agent = new Agent({connect: {timeout: attemptTimeoutMs}, keepAliveTimeout: 1000});
	#closed = false;

	constructor(clock: SimClock) {
		this.#clock = clock;
	}

	send(job: Job): void {
		if (!job.webhook || this.#closed) {
			return;
		}

		const body = JSON.stringify({...toStatusBody(job), input: job.input, webhook: job.webhook});
		void this.#attempt(job.webhook, body, 1);
	}

	close(): void {
		this.#closed = true;
		for (const timer of this.#pending) {
			timer.cancel();
		}

		for (const controller of this.#inFlight) {
			controller.abort();
		}

		this.#pending.clear();
		this.#inFlight.clear();
		void this.#agent.close();
	}

	async #attempt(url: string, body: string, attempt: number): Promise<void> {
		const controller = new AbortController();
		this.#inFlight.add(controller);
		let delivered = false;
		try {
			const response = await request(url, {
				method: 'POST',
				body,
				headers: {'content-type': 'application/json', 'user-agent': 'podtop-sim-webhook'},
				signal: controller.signal,
				dispatcher: this.#agent,
				headersTimeout: attemptTimeoutMs,
				bodyTimeout: attemptTimeoutMs,
			});
			await response.body.dump();
			delivered = response.statusCode >= 200 && response.statusCode < 300;
		} catch {
			delivered = false;
		} finally {
			this.#inFlight.delete(controller);
		}

		if (delivered || this.#closed || attempt >= webhookAttempts) {
			return;
		}

		const timer = this.#clock.setTimeout(() => {
			this.#pending.delete(timer);
			void this.#attempt(url, body, attempt + 1);
		}, webhookSpacingMs);
		this.#pending.add(timer);
	}
}
