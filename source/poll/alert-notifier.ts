import {postWebhook, type WebhookOutcome} from '../api/webhook-client.js';
import type {AlertWebhook} from '../config/alert-rules.js';
import {sanitizeLine} from '../format/sanitize.js';
import type {AlertChange} from './alert-loop.js';

export type WebhookReport = AlertChange & {
	readonly delivered: boolean;
	readonly attempts: number;
	/** Why not, when not; and whether the receiver may have it anyway (then it is not sent again). */
	readonly reason?: string;
	readonly mayHaveHappened?: boolean;
};

type Options = {
	readonly webhook: AlertWebhook;
	readonly onReport?: (report: WebhookReport) => void;
	readonly post?: (url: string, body: unknown) => Promise<WebhookOutcome>;
	/** The first wait between tries (doubled each time, with full jitter, at most a minute). */
	readonly backoffMs?: number;
};

/** Slack-compatible: `text` for people, `podtop` for programs (its `key` names the firing, for deduplication). */
export function webhookBody({state, alert, at}: AlertChange): Record<string, unknown> {
	const what = `${sanitizeLine(alert.rule)} · ${sanitizeLine(alert.subjectName)}`;
	const text =
		state === 'firing'
			? `:rotating_light: FIRING ${what}: ${sanitizeLine(alert.message)}`
			: `:white_check_mark: RESOLVED ${what} (firing since ${new Date(alert.firedAt).toISOString()})`;
	return {
		text,
		podtop: {
			key: `${alert.id}@${alert.since}`,
			state,
			rule: sanitizeLine(alert.rule),
			kind: alert.kind,
			subject: sanitizeLine(alert.subject),
			subjectName: sanitizeLine(alert.subjectName),
			message: sanitizeLine(alert.message),
			since: new Date(alert.since).toISOString(),
			firedAt: new Date(alert.firedAt).toISOString(),
			at: new Date(at).toISOString(),
		},
	};
}

/**
Posts each firing and each resolution to a webhook, in order, one at a time. A post the receiver
refused before taking it (429, 502–504, no connection) is tried again, up to `retries` times; one
that may have been taken (a reset or timeout after sending, a 500) is never sent again, nor is a
firing ever posted twice.
*/
export function createWebhookNotifier({webhook, onReport, post = postWebhook, backoffMs = 1000}: Options) {
	const handled = new Set<string>();
	const queue: AlertChange[] = [];
	let sending = false;
	let stopped = false;
	let wake: {readonly timer: NodeJS.Timeout; readonly resolve: () => void} | undefined;

	const wait = async (ms: number) =>
		new Promise<void>(resolve => {
			wake = {
				timer: setTimeout(() => {
					wake = undefined;
					resolve();
				}, ms),
				resolve,
			};
		});

	const send = async (change: AlertChange) => {
		const body = webhookBody(change);
		for (let attempt = 1; ; attempt++) {
			// eslint-disable-next-line no-await-in-loop
			const result = await post(webhook.url, body);
			if (result.outcome === 'delivered') {
				onReport?.({...change, delivered: true, attempts: attempt});
				return;
			}

			if (result.outcome === 'failed' || attempt > webhook.retries || stopped) {
				onReport?.({
					...change,
					delivered: false,
					attempts: attempt,
					reason: result.reason,
					mayHaveHappened: result.outcome === 'failed' && result.mayHaveHappened,
				});
				return;
			}

			const backoff = Math.random() * Math.min(60_000, backoffMs * 2 ** (attempt - 1));
			// eslint-disable-next-line no-await-in-loop
			await wait(result.afterMs ?? backoff);
		}
	};

	const drain = async () => {
		if (sending) {
			return;
		}

		sending = true;
		// `stop()` empties the queue: the loop ends after the post in flight.
		while (queue.length > 0) {
			// eslint-disable-next-line no-await-in-loop
			await send(queue.shift()!);
		}

		sending = false;
	};

	return {
		notify(change: AlertChange) {
			const key = `${change.alert.id}@${change.alert.since}:${change.state}`;
			if (stopped || handled.has(key)) {
				return;
			}

			handled.add(key);
			queue.push(change);
			void drain();
		},
		stop() {
			stopped = true;
			queue.length = 0;
			if (wake) {
				clearTimeout(wake.timer);
				wake.resolve();
			}
		},
	};
}
