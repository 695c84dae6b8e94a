import {describe, expect, test} from 'vitest';
import {parseAlertRules} from '../../source/config/alert-rules.js';
import {sanitizeLine} from '../../source/format/sanitize.js';
import {closedAfterEach, engineFor, simStats} from '../helpers/engine.js';
import {startTestSim, waitFor} from '../helpers/sim-client.js';

const apiKey = 'rpa_SPENDALERTSKEY00000000000000000000';
const running = closedAfterEach();

/** An engine on the simulator's fleet (its `idle-dev-box` runs at 0 % GPU, $0.49/h) and its bills, with these rules. */
async function engineWith(rulesText: string) {
	running.sim = await startTestSim({apiKey, podCount: 12, restQuota: {minute: 10_000, hour: 100_000, day: 1_000_000}, graphqlRate: 1000});
	running.engine = await engineFor(
		{url: running.sim.url, apiKey},
		{poll: ['endpoints', 'pods', 'gpus'], alerts: {rules: parseAlertRules(rulesText, 'alerts.toml')}},
	);
	running.engine.start();
	return running.engine;
}

const alertsOf = (engine: NonNullable<typeof running.engine>, rule: string) =>
	engine.store
		.getState()
		.alerts.filter(alert => alert.rule === rule)
		.map(alert => `${alert.subjectName}: ${alert.message}`);

describe('spend alerts against the simulator', () => {
	test("idle-pod: the simulator's idle pod fires from the polled GPU utilisation, with its cost so far today; a busy pod and a cheap one do not", async () => {
		const engine = await engineWith(
			[
				'[[rule]]\nname = "idle"\nkind = "idle-pod"\nfor = "0s"\ncosting = 0.4\npod = "idle-*"',
				'[[rule]]\nname = "pricey"\nkind = "idle-pod"\nfor = "0s"\npod = "idle-*"',
				'[[rule]]\nname = "training"\nkind = "idle-pod"\nfor = "0s"\ncosting = 0\npod = "llama-3-70b-*"',
			].join('\n'),
		);
		await waitFor(() => alertsOf(engine, 'idle').length > 0, 15_000);
		const fired = alertsOf(engine, 'idle');
		expect(fired).toEqual([expect.stringMatching(/^idle-dev-box: GPU 0 % \(under 5 %\) at \$0\.49\/h, ~\$\d+\.\d\d so far today$/)]);
		expect(sanitizeLine(fired[0]!)).toBe(fired[0]);
		// At $0.49/h it is under the default $0.50/h; the training pod runs near 95 %.
		expect(alertsOf(engine, 'pricey')).toEqual([]);
		expect(alertsOf(engine, 'training')).toEqual([]);
		expect(engine.store.getState().pods.order.map(id => engine.store.getState().pods.byId[id]!.record.name)).toContain('llama-3-70b-finetune');
	});

	test("budget: the month's bills and the $/h make a forecast over the budget; one read of the bills", async () => {
		const engine = await engineWith(
			'[[rule]]\nname = "budget"\nkind = "budget"\nmonthly = 1\n\n[[rule]]\nname = "roomy"\nkind = "budget"\nmonthly = 1000000\n',
		);
		await waitFor(() => alertsOf(engine, 'budget').length > 0, 15_000);
		expect(alertsOf(engine, 'budget')).toEqual([
			expect.stringMatching(
				/^monthly budget: forecast \$[\d.]+ this month, over the \$1\.00 budget: \$[\d.]+ billed so far and \$[\d.]+\/h for the \d+d \d+h to the month's end$/,
			),
		]);
		expect(alertsOf(engine, 'roomy')).toEqual([]);
		const {rest = {}} = await simStats(running.sim!);
		expect(Object.entries(rest).flatMap(([route, {requests}]) => (route.startsWith('GET /billing') ? [`${route} ${requests}`] : []))).toEqual([
			'GET /billing 1',
		]);
	});
});
