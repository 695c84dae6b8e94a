import {describe, expect, test} from 'vitest';
import {App} from '../../source/dashboard/app.js';
import {closedAfterEach, engineFor, simStats} from '../helpers/engine.js';
import {formatPrice} from '../../source/format/numbers.js';
import {spendQueries} from '../../source/rows/spend-figures.js';
import {cursorStepMs, initialViewState} from '../../source/view-state/view-state.js';
import {startTestSim, waitFor} from '../helpers/sim-client.js';
import {frameMatching, renderWith, tick} from '../helpers/ui-fixture.js';

const apiKey = 'rpa_SPENDPANEKEY0000000000000000000000';
const devKey = 'rpa_SPENDPANEDEVKEY00000000000000000';
const running = closedAfterEach();

/** A dashboard on the simulator's fleet and its bills (its simulated past is billed too), with the key given. */
async function dashboard({key = apiKey, managementApi}: {key?: string; managementApi?: 'graphql'} = {}) {
	running.sim = await startTestSim({apiKey, devApiKey: devKey, podCount: 12, restQuota: {minute: 10_000, hour: 100_000, day: 1_000_000}, graphqlRate: 1000});
	running.engine = await engineFor({url: running.sim.url, apiKey: key}, {poll: ['endpoints', 'pods', 'gpus'], budget: {graphqlPerWindow: 200}, managementApi});
	running.engine.start();
	const {engine} = running;
	await waitFor(() => engine.store.getState().pods.order.length > 0, 15_000);
	const rendered = renderWith({store: engine.store}, <App readOnly={false} />, {engine});
	const press = async (text: string) => {
		rendered.stdin.write(text);
		await tick(60);
	};

	return {...rendered, press};
}

/** The simulator's count of billing reads, by route. */
async function billingReads(): Promise<Record<string, number>> {
	const {rest = {}} = await simStats(running.sim!);
	return Object.fromEntries(Object.entries(rest).flatMap(([route, {requests}]) => (route.startsWith('GET /billing') ? [[route, requests]] : [])));
}

describe('the Spend pane', () => {
	test('4 shows the bills: stacked by category over 24h by hour, the day figures, month to date and its forecast, the costliest resources by name', async () => {
		const {lastFrame, press} = await dashboard();
		await press('4');
		const frame = await frameMatching(lastFrame, /^Spend .* 24h by hour .* \$[\d.]+/m, 15_000);
		expect(frame).toMatch(/today \$[\d.]+ . yesterday \$[\d.]+ . last \w{3} \$[\d.]+ \(UTC days\)/);
		expect(frame).toMatch(/month to date \$[\d.]+ . forecast \$[\d.]+ at \$[\d.]+\/h/);
		expect(frame).toMatch(/by category +pod GPU \$[\d.]+/);
		expect(frame).toMatch(/KIND +NAME +SPENT +\$\/H NOW/);
		expect(frame).toMatch(/pod +l{2}ama-3-70b-finetune(?: +\$[\d.]+){2}/);
		await press('>');
		const week = await frameMatching(lastFrame, /^Spend .* 7d by day .* \$[\d.]+/m, 15_000);
		expect(week).toMatch(/KIND +NAME +SPENT/);
		await press('>');
		await press('>');
		await frameMatching(lastFrame, /^Spend .* 1y by month .* \$[\d.]+/m, 15_000);
	});

	test('Enter opens the pod selected; Esc comes back; within 5 minutes the pane reads each billing route once', async () => {
		const {lastFrame, press} = await dashboard();
		await press('4');
		await frameMatching(lastFrame, /^Spend .* 24h by hour .* \$[\d.]+/m, 15_000);
		const first = await billingReads();
		expect(Object.keys(first).length).toBe(4);
		expect(Object.values(first).every(count => count === 1)).toBe(true);
		await press('\r');
		await frameMatching(lastFrame, /^llama-3-70b-finetune \(\w+\) RUNNING/m, 15_000);
		await press('\u001B');
		await tick(100);
		await frameMatching(lastFrame, /^Spend .* 24h by hour .* \$[\d.]+/m, 15_000);
		await press('1');
		await press('4');
		await frameMatching(lastFrame, /^Spend .* 24h by hour .* \$[\d.]+/m, 15_000);
		await tick(200);
		expect(await billingReads()).toEqual(first);
	});

	test('7d and 30d share one daily read: the second of them asks nothing, and their last seven days agree', async () => {
		const {lastFrame, press} = await dashboard();
		await press('4');
		await frameMatching(lastFrame, /^Spend .* 24h by hour .* \$[\d.]+/m, 15_000);
		await press('>');
		const week = await frameMatching(lastFrame, /^Spend .* 7d by day .* \$[\d.]+/m, 15_000);
		const afterWeek = await billingReads();
		await press('>');
		const month = await frameMatching(lastFrame, /^Spend .* 30d by day .* \$[\d.]+/m, 15_000);
		await tick(200);
		expect(await billingReads()).toEqual(afterWeek);
		// The day figures come from the one read: the same in both.
		const days = (frame: string) => /today \$[\d.]+ . yesterday \$[\d.]+ . last \w{3} \$[\d.]+/.exec(frame)?.[0];
		expect(days(month)).toBeDefined();
		expect(days(month)).toBe(days(week));
	});

	test('a key that cannot read billing: the pane says so, the rest goes on', async () => {
		const {lastFrame, press} = await dashboard({key: devKey});
		await press('4');
		const frame = await frameMatching(lastFrame, /this key cannot read billing \(a team Dev key\?\)/, 15_000);
		expect(frame).not.toContain(devKey);
		await press('1');
		await frameMatching(lastFrame, /Endpoints/, 15_000);
	});

	test('over GraphQL alone: no bills, and why', async () => {
		const {lastFrame, press} = await dashboard({managementApi: 'graphql'});
		await press(':');
		await press('spend\r');
		await frameMatching(lastFrame, /no bills: REST v2 publishes them/, 15_000);
	});

	test('under the time cursor the pane shows the window ending at its moment, from the bills of that window; . is live again', async () => {
		const {lastFrame, press, view} = await dashboard();
		await press('4');
		const live = await frameMatching(lastFrame, /^Spend .* 24h by hour .* \$[\d.]+/m, 15_000);
		expect(live).toMatch(/today \$[\d.]+ . yesterday/);
		expect(live).toMatch(/\$\/H NOW/);
		// Two days back, on a bucket's edge plus a minute: the 24 hours up to that hour.
		const at = Math.floor((Date.now() - 2 * 86_400_000) / 3_600_000) * 3_600_000 + 60_000;
		view.dispatch({type: 'cursor', at});
		const queries = spendQueries('24h', at);
		const report = await running.engine!.spend(queries.account, 'category');
		const expected = report.rows.reduce((sum, row) => (row.from >= queries.from && row.from < queries.account.to! ? sum + row.total : sum), 0);
		const past = await frameMatching(
			lastFrame,
			new RegExp(
				String.raw`^Spend .* 24h by hour to \S+ \d\d:\d\d . \$` +
					formatPrice(expected)
						.slice(1)
						.replace('.', String.raw`\.`),
				'm',
			),
			15_000,
		);
		expect(past).toMatch(/that day \$[\d.]+ . the day before \$[\d.]+/);
		expect(past).toMatch(/\$\/H THEN/);
		expect(past).not.toMatch(/\$\/H NOW/);
		// The moment's bills differ from now's: the pane does not show the live window under the cursor.
		expect(past.split('\n')[3]).not.toBe(live.split('\n')[3]);
		await press('.');
		await frameMatching(lastFrame, /^Spend . 24h by hour . \$[\d.]+/m, 15_000);
	});

	test('[ and ] step the cursor by a bucket of the Spend window: an hour at 24h, a day at 7d and 30d, 30 days at 1y', () => {
		const state = initialViewState({columns: 120, rows: 40});
		const onSpend = {...state, views: [{type: 'spend' as const}]};
		expect(cursorStepMs({...onSpend, spend: {...onSpend.spend, window: '24h'}})).toBe(3_600_000);
		expect(cursorStepMs({...onSpend, spend: {...onSpend.spend, window: '30d'}})).toBe(86_400_000);
		expect(cursorStepMs({...onSpend, spend: {...onSpend.spend, window: '1y'}})).toBe(30 * 86_400_000);
		// Elsewhere, the place's history window says (24h: 15 minutes).
		expect(cursorStepMs({...state, windows: {...state.windows, endpoints: '24h'}})).toBe(900_000);
	});
});
