import chalk from 'chalk';
import {describe, expect, test} from 'vitest';
import {createStore} from 'zustand';
import {Header, hotBudgets} from '../../source/components/header.js';
import {colorful} from '../../source/components/services.js';
import type {Engine} from '../../source/engine/create-engine.js';
import {readHistoryFlags} from '../../source/commands/history-flags.js';
import type {RecordingState} from '../../source/history/history-types.js';
import {openHistory} from '../../source/history/open-history.js';
import {createPodtopStore} from '../../source/store/create-store.js';
import {frameMatching, health, renderWith, testStore, tick} from '../helpers/ui-fixture.js';

describe('Header', () => {
	test('the balance and how long it lasts at the spend per hour, against the limit; shorter in a narrower header; never $0 once unpublished', async () => {
		const state = testStore();
		state.writes.setBalance({balance: 212.4, spendPerHour: 2.48});
		const wide = renderWith(state, <Header width={140} readOnly={false} />);
		await frameMatching(wide.lastFrame, /│ \$212\.40 · 3d 13h at \$2\.48\/h · 3% of \$80\/h /);
		const eighty = renderWith(state, <Header width={80} readOnly={false} />);
		await frameMatching(eighty.lastFrame, /│ \$212\.40 · 3d 13h at \$2\.48\/h +data –$/m);
		expect(eighty.lastFrame()!.split('\n')[0]!.length).toBeLessThanOrEqual(80);
		const narrow = renderWith(state, <Header width={66} readOnly={false} />);
		await frameMatching(narrow.lastFrame, /│ \$212 3d13h +data –$/m);
		state.writes.setBalance('not-published');
		await frameMatching(wide.lastFrame, /│ balance: not published by the API /);
		expect(wide.lastFrame()).not.toMatch(/\$0/);
	});

	test('LIVE, the host, the key only as a fingerprint, and the data age (none before the first poll)', async () => {
		const {lastFrame} = renderWith(testStore(), <Header width={120} readOnly={false} />);
		await tick();
		expect(lastFrame()).toMatch(/^podtop +LIVE +api\.runpod\.ai │ key •{4}1a2b │ .*data –$/m);
	});

	test('the data age is measured: the oldest data on screen, from when it was fetched, in steps (ages far from a step: the test may run slowly)', async () => {
		const state = testStore();
		const now = Date.now();
		state.writes.setEndpoints(
			[
				{id: 'ep1', name: 'one'},
				{id: 'ep2', name: 'two'},
			],
			now - 20_000,
		);
		state.writes.reportSource('graphql', now - 20_000);
		state.writes.setHealth('ep1', health(), now - 20_000);
		state.writes.setHealth('ep2', health(), now - 40_000);
		state.writes.reportSource('jobApi', now - 20_000);
		const {lastFrame, view} = renderWith(state, <Header width={120} readOnly={false} />);
		// Both endpoints on screen: ep2's workers and queue are 40 s old.
		view.dispatch({type: 'endpoints-on-screen', keys: ['ep1', 'ep2']});
		await frameMatching(lastFrame, /data ≤1m$/m);
		// Scrolled so that only ep1 shows: its figures and the list are 20 s old.
		view.dispatch({type: 'endpoints-on-screen', keys: ['ep1']});
		await frameMatching(lastFrame, /data ≤30s$/m);
		// The GPUs pane reads the GraphQL lists only.
		state.writes.reportSource('graphql', now - 100_000);
		view.dispatch({type: 'switch-pane', pane: 'gpus'});
		await frameMatching(lastFrame, /data ≤2m$/m);
	});

	test('DEMO says its past is simulated: while it is being run and recorded, then once it is', async () => {
		const state = createPodtopStore({mode: 'demo', apiHost: '127.0.0.1:4000', keyFingerprint: '••••9f00'});
		let recorded = () => {};
		const ready = new Promise<void>(resolve => {
			recorded = resolve;
		});
		const engine = {simulatedPastMs: 6 * 3_600_000, history: {ready}} as unknown as Engine;
		const {lastFrame} = renderWith(state, <Header width={120} readOnly={false} />, {engine});
		await tick();
		expect(lastFrame()).toMatch(/^podtop +DEMO +simulating the past 6h… +127\.0\.0\.1:4000 │ key •{4}9f00 │ .*data –$/m);
		recorded();
		await frameMatching(lastFrame, /^podtop +DEMO +past 6h simulated +127\.0\.0\.1:4000 │/m);
		// One line still, cut to the width.
		expect(lastFrame()!.split('\n')[0]!.length).toBeLessThanOrEqual(120);
	});

	test("a past that is not whole hours (the demo's world begins on the hour) reads as hours and minutes", async () => {
		const state = createPodtopStore({mode: 'demo', apiHost: '127.0.0.1:4000', keyFingerprint: '••••9f00'});
		const engine = {simulatedPastMs: (2 * 3600 + 17 * 60) * 1000 + 670, history: {ready: Promise.resolve()}} as unknown as Engine;
		const {lastFrame} = renderWith(state, <Header width={120} readOnly={false} />, {engine});
		await frameMatching(lastFrame, /^podtop +DEMO +past 2h17m simulated +127\.0\.0\.1:4000 │/m);
	});

	test('LIVE (and a DEMO without a simulated past) says nothing of one', async () => {
		const engine = {simulatedPastMs: undefined, history: {ready: Promise.resolve()}} as unknown as Engine;
		const {lastFrame} = renderWith(testStore(), <Header width={120} readOnly={false} />, {engine});
		await tick();
		expect(lastFrame()).not.toMatch(/simulat/);
	});

	test('what history does, after the key: recording, paused with the reason until it resumes, read-only, from the agent, none', async () => {
		const status = createStore<RecordingState>()(() => ({state: 'recording', file: '/tmp/a.sqlite'}));
		const engine = {simulatedPastMs: undefined, history: {ready: Promise.resolve(), status}} as unknown as Engine;
		const {lastFrame} = renderWith(testStore(), <Header width={120} readOnly={false} />, {engine});
		await frameMatching(lastFrame, /│ key •{4}1a2b │ ● rec │ .*data –$/m);
		status.setState({state: 'paused', file: '/tmp/a.sqlite', reason: 'disk full'}, true);
		await frameMatching(lastFrame, /│ key •{4}1a2b │ ⚠ rec paused: disk full │ /m);
		status.setState({state: 'recording', file: '/tmp/a.sqlite'}, true);
		await frameMatching(lastFrame, /│ ● rec │ /m);
		status.setState({state: 'reading', file: '/tmp/a.sqlite', reason: 'another podtop records it'}, true);
		await frameMatching(lastFrame, /│ history: read-only │ /m);
		status.setState({state: 'remote', source: 'agent'}, true);
		await frameMatching(lastFrame, /│ history: agent │ /m);
		status.setState({state: 'off', reason: 'cannot write /nope'}, true);
		await frameMatching(lastFrame, /│ no history │ /m);
		expect(lastFrame()!.split('\n')[0]!.length).toBeLessThanOrEqual(120);
	});

	test('with --history-source prometheus=URL the header says the history is Prometheus, not the agent', async () => {
		const history = openHistory({
			store: createPodtopStore({mode: 'live', apiHost: 'api.runpod.ai', keyFingerprint: '••••1a2b'}).store,
			service: undefined as never,
			mode: 'live',
			options: readHistoryFlags({history: true, historySource: 'prometheus=http://127.0.0.1:9/prometheus'}),
			record: false,
		});
		try {
			const engine = {simulatedPastMs: undefined, history: {ready: history.ready, status: history.status}} as unknown as Engine;
			const {lastFrame} = renderWith(testStore(), <Header width={120} readOnly={false} />, {engine});
			await frameMatching(lastFrame, /│ key •{4}1a2b │ history: prometheus │ /m);
			expect(lastFrame()).not.toMatch(/history: agent/);
		} finally {
			await history.close();
		}
	});

	test('READ-ONLY is said next to the mode', async () => {
		const {lastFrame} = renderWith(testStore(), <Header readOnly width={120} />);
		await tick();
		expect(lastFrame()).toMatch(/LIVE {2}READ-ONLY/);
	});

	test('the profile is always named beside the mode, on its colour as a band; without colours the name alone', async () => {
		const state = createPodtopStore({mode: 'live', apiHost: 'api.runpod.ai', keyFingerprint: '••••1a2b', profile: {name: 'prod', color: 'red'}});
		const plain = renderWith(state, <Header readOnly width={120} />);
		await tick();
		expect(plain.lastFrame()).toMatch(/^podtop +LIVE {2}READ-ONLY {2}prod +api\.runpod\.ai │ key •{4}1a2b │/m);
		// No colour at all under NO_COLOR / --no-color: the band is the name in inverse video.
		expect(plain.lastFrame()).not.toMatch(/\u001B\[3\dm/);
		plain.unmount();
		const {level} = chalk;
		chalk.level = 1;
		try {
			const coloured = renderWith(state, <Header width={120} readOnly={false} />, {colors: colorful});
			await tick();
			// Red, inverse: a red band with the name on it.
			expect(coloured.lastFrame()).toMatch(/\u001B\[31m(?:\u001B\[\d+m)* prod /);
			coloured.unmount();
		} finally {
			chalk.level = level;
		}
	});

	test('no profile, no band', async () => {
		const {lastFrame} = renderWith(testStore(), <Header width={120} readOnly={false} />);
		await tick();
		expect(lastFrame()).toMatch(/^podtop +LIVE +api\.runpod\.ai │/m);
	});

	test('budget gauges name the operation and the endpoint by name, cut in the middle', async () => {
		const state = testStore();
		state.writes.setEndpoints([{id: 'ep-llm', name: 'llama-3-8b-instruct-production'}], 0);
		state.writes.setBudgets({
			graphql: {key: 'graphql', used: 2, allowed: 10, windowMs: 10_000, inFlight: 0, concurrency: 1},
			'ep-llm:health': {key: 'ep-llm:health', used: 9, allowed: 10, windowMs: 10_000, inFlight: 0, concurrency: 1},
		});
		const {lastFrame} = renderWith(state, <Header width={140} readOnly={false} />);
		await tick();
		expect(lastFrame()).toMatch(/graphql █░░░ health llama-3…uction ████/);
	});

	test("v2's budget shows the service's windows, what is left of each for every tool on the key, and why it is slowed", async () => {
		const state = testStore();
		const windows = [
			{name: 'minute', remaining: 41, limit: 60},
			{name: 'hour', remaining: 2800, limit: 3000},
			{name: 'day', remaining: 49_500, limit: 50_000},
		];
		state.writes.setBudgets({v2: {key: 'v2', used: 9, allowed: 30, windowMs: 60_000, inFlight: 0, concurrency: 2, windows}});
		const {lastFrame} = renderWith(state, <Header width={140} readOnly={false} />);
		await tick();
		expect(lastFrame()).toMatch(/│ v2 41\/60 min · 2\.8k\/3k h +data –$/m);
		state.writes.setBudgets({
			v2: {
				key: 'v2',
				used: 9,
				allowed: 30,
				windowMs: 60_000,
				inFlight: 0,
				concurrency: 2,
				windows: [{name: 'minute', remaining: 3, limit: 60}, windows[1]!, {name: 'day', remaining: 900, limit: 50_000}],
				slowed: {reason: 'others', window: 'minute'},
			},
		});
		await frameMatching(lastFrame, /│ v2 3\/60 min · 2\.8k\/3k h · 900\/50k d slowed: others on the key spend min +data –$/m);
	});

	test('a failing source raises the DEGRADED banner with its error, made inert', async () => {
		const state = testStore();
		state.writes.reportSource('graphql', Date.now(), 'network error: ECONNREFUSED \u001B]0;x\u0007');
		const {lastFrame} = renderWith(state, <Header width={140} readOnly={false} />);
		await tick();
		const [, banner] = lastFrame()!.split('\n');
		expect(banner).toMatch(/⚠ DEGRADED: GraphQL failing since (now|\d+s) \(network error: ECONNREFUSED ␛]0;x\^G\) — showing last known data/);
	});

	test('a successful poll does not redraw it (an idle screen stays still); a failing one does', async () => {
		const state = testStore();
		state.writes.reportSource('graphql', 1000);
		const {frames} = renderWith(state, <Header width={120} readOnly={false} />);
		await tick();
		const drawn = frames.length;
		for (let poll = 1; poll <= 5; poll++) {
			state.writes.reportSource('graphql', 1000 + poll * 5000);
			state.writes.reportSource('jobApi', 1000 + poll * 5000);
		}

		await tick();
		expect(frames.length).toBe(drawn);
		state.writes.reportSource('jobApi', 40_000, 'HTTP 503');
		await tick();
		expect(frames.length).toBeGreaterThan(drawn);
		expect(frames.at(-1)).toContain('DEGRADED: job API failing since');
	});

	test('an alert firing adds a banner: the oldest, how many more, its names made inert', async () => {
		const state = testStore();
		const alert = {kind: 'queue', subject: 'ep1', since: 0, firedAt: 0};
		state.writes.setAlerts([
			{...alert, id: 'a', rule: 'backlog', subjectName: 'llama\u001B[2J', message: '80 jobs in queue (over 50)'},
			{...alert, id: 'b', rule: 'spend', subjectName: 'running pods', message: 'spending $41.00/h (over $40.00/h)', firedAt: 5},
		]);
		const {lastFrame} = renderWith(state, <Header width={120} readOnly={false} />);
		await tick();
		expect(lastFrame()).toMatch(/^ ⚠ ALERT backlog │ llama␛\[2J: 80 jobs in queue \(over 50\) \(\+1 more firing\)$/m);
	});

	test('the hottest budgets: GraphQL first, then backing-off ones, then the fullest', () => {
		const budget = (key: string, used: number, backoffUntil?: number) => ({
			key,
			used,
			allowed: 10,
			windowMs: 10_000,
			inFlight: 0,
			concurrency: 1,
			backoffUntil,
		});
		const hot = hotBudgets({a: budget('a:status', 9), b: budget('b:status', 1, 5), c: budget('c:health', 5), graphql: budget('graphql', 0)}, 3);
		expect(hot.map(item => item.key)).toEqual(['graphql', 'b:status', 'a:status']);
		const withV2 = hotBudgets({a: budget('a:status', 9), graphql: budget('graphql', 0), v2: budget('v2', 1)}, 3);
		expect(withV2.map(item => item.key)).toEqual(['v2', 'graphql', 'a:status']);
	});
});
