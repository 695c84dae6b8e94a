import {createServer} from 'node:net';
import {describe, expect, test} from 'vitest';
import type {AlertChange} from '../../source/poll/alert-loop.js';
import {createWebhookNotifier, type WebhookReport} from '../../source/poll/alert-notifier.js';
import {waitFor} from '../helpers/sim-client.js';
import {startWebhookReceiver} from '../helpers/webhook-receiver.js';

const change = (state: 'firing' | 'resolved', since = 1000): AlertChange => ({
	state,
	at: 5000,
	alert: {
		id: '0:backlog@ep1',
		rule: 'backlog',
		kind: 'queue',
		subject: 'ep1',
		subjectName: 'llama\u001B[2J',
		message: '80 jobs in queue (over 50)',
		since,
		firedAt: 4000,
	},
});

describe('posting alerts to a webhook (real HTTP)', () => {
	test('a refused post (503) is tried again until taken; a firing and its resolution go once each, in order, Slack-style', async () => {
		const receiver = await startWebhookReceiver([503, 503, 200]);
		const reports: WebhookReport[] = [];
		const notifier = createWebhookNotifier({webhook: {url: receiver.url, retries: 5}, backoffMs: 10, onReport: report => reports.push(report)});
		notifier.notify(change('firing'));
		notifier.notify(change('firing'));
		notifier.notify(change('resolved'));
		await waitFor(() => reports.length === 2);
		expect(reports.map(({state, delivered, attempts}) => ({state, delivered, attempts}))).toEqual([
			{state: 'firing', delivered: true, attempts: 3},
			{state: 'resolved', delivered: true, attempts: 1},
		]);
		expect(receiver.deliveries).toHaveLength(4);
		const [firing, resolved] = [receiver.deliveries[2]!.body, receiver.deliveries[3]!.body];
		expect(firing.text).toBe(':rotating_light: FIRING backlog · llama␛[2J: 80 jobs in queue (over 50)');
		expect(firing.podtop).toMatchObject({key: '0:backlog@ep1@1000', state: 'firing', subject: 'ep1'});
		expect(resolved.text).toMatch(/^:white_check_mark: RESOLVED backlog · llama␛\[2J \(firing since 1970-01-01T00:00:04\.000Z\)$/);
		notifier.stop();
		await receiver.close();
	});

	test('a post that may have arrived (500) is never sent again; the same firing later is not posted twice, a new one is', async () => {
		const receiver = await startWebhookReceiver([500, 200]);
		const reports: WebhookReport[] = [];
		const notifier = createWebhookNotifier({webhook: {url: receiver.url, retries: 5}, backoffMs: 10, onReport: report => reports.push(report)});
		notifier.notify(change('firing'));
		await waitFor(() => reports.length === 1);
		expect(reports[0]).toMatchObject({delivered: false, attempts: 1, reason: 'HTTP 500', mayHaveHappened: true});
		notifier.notify(change('firing'));
		notifier.notify(change('firing', 9000));
		await waitFor(() => reports.length === 2);
		expect(receiver.deliveries.map(delivery => delivery.body.podtop.key)).toEqual(['0:backlog@ep1@1000', '0:backlog@ep1@9000']);
		notifier.stop();
		await receiver.close();
	});

	test('no receiver listening: tried again up to `retries`, then given up, and said not to have arrived', async () => {
		const server = createServer();
		await new Promise<void>(resolve => server.listen(0, '127.0.0.1', resolve));
		const {port} = server.address() as {port: number};
		await new Promise(resolve => server.close(resolve));
		const reports: WebhookReport[] = [];
		const notifier = createWebhookNotifier({
			webhook: {url: `http://127.0.0.1:${port}/hook`, retries: 2},
			backoffMs: 10,
			onReport: report => reports.push(report),
		});
		notifier.notify(change('firing'));
		await waitFor(() => reports.length === 1);
		expect(reports[0]).toMatchObject({delivered: false, attempts: 3, reason: 'ECONNREFUSED', mayHaveHappened: false});
		notifier.stop();
	});
});
