import {mkdtempSync, rmSync} from 'node:fs';
import {tmpdir} from 'node:os';
import {join} from 'node:path';
import {afterEach, describe, expect, test} from 'vitest';
import {parseAlertRules} from '../../source/config/alert-rules.js';
import {App} from '../../source/dashboard/app.js';
import type {Engine} from '../../source/engine/create-engine.js';
import {engineFor} from '../helpers/engine.js';
import {startTestSim, waitFor, type TestSim} from '../helpers/sim-client.js';
import {frameMatching, renderWith, tick} from '../helpers/ui-fixture.js';

let sim: TestSim | undefined;
let engine: Engine | undefined;
let folder: string | undefined;
afterEach(async () => {
	await engine?.close();
	await sim?.close();
	if (folder) {
		rmSync(folder, {recursive: true, force: true});
	}

	engine = undefined;
	sim = undefined;
	folder = undefined;
});

const keys = {enter: '\r', escape: '\u001B'};

/** A dashboard on the simulator's fleet with a rule that fires at once on every running pod `pods` matches, recording its history. */
async function dashboard(pods: string) {
	sim = await startTestSim({graphqlRate: 1000});
	folder = mkdtempSync(join(tmpdir(), 'podtop-timeline-'));
	const rules = parseAlertRules(
		`[[rule]]\nname = "paying for nothing"\nkind = "idle-pod"\nunder = 101\nfor = "0s"\ncosting = 0\npod = "${pods}"\n`,
		'alerts.toml',
	);
	engine = await engineFor(sim, {
		poll: ['endpoints', 'pods', 'gpus'],
		budget: {graphqlPerWindow: 200},
		alerts: {rules},
		record: true,
		history: {directory: folder},
	});
	engine.start();
	await waitFor(() => engine!.store.getState().alerts.length > 0, 15_000);
	const rendered = renderWith({store: engine.store}, <App readOnly={false} />, {engine});
	// A key at a time, each read on its own (Esc and a key read together would be Alt and that key).
	const press = async (text: string) => {
		rendered.stdin.write(text);
		await tick(60);
	};

	return {...rendered, press};
}

describe('firing alerts and the events timeline in the dashboard', () => {
	test(':alerts lists what fires (since when, the rule, the thing); Enter opens the pod it is about, Esc comes back', async () => {
		const {lastFrame, press} = await dashboard('jupyter-*');
		await press(':');
		await press('alerts\r');
		const frame = await frameMatching(lastFrame, /^Alerts firing \(1\)/m);
		expect(frame).toMatch(/SINCE +FOR +RULE +ON +NAME +WHAT/);
		expect(frame).toMatch(/paying for nothing +pod +jupyter-research +GPU \d+ %/);
		expect(frame).toMatch(/Enter open/);
		await press(keys.enter);
		const jupyter = engine!.store.getState().alerts.find(alert => alert.subjectName === 'jupyter-research')!;
		await frameMatching(lastFrame, new RegExp(String.raw`^jupyter-research \(${jupyter.subject}\) RUNNING`, 'm'));
		await press(keys.escape);
		await frameMatching(lastFrame, /^Alerts firing/m);
		// Its keys come from the operations: `?` lists Enter and the palette knows the command.
		await press('?');
		const help = await frameMatching(lastFrame, /Keys: Alerts/);
		expect(help).toMatch(/open the endpoint, pod or GPU type the alert is about/);
		expect(help).toMatch(/:alerts +the alerts firing now/);
	}, 60_000);

	test(':events shows the recorded timeline newest first, as `podtop events` words it; / filters it, j moves down it', async () => {
		const {lastFrame, press, view} = await dashboard('*');
		await waitFor(async () => ((await engine!.history.reader()?.events(0, Date.now() + 1000)) ?? []).some(event => event.type === 'alert.firing'), 15_000);
		await press(':');
		await press('events\r');
		const frame = await frameMatching(lastFrame, /alert\.firing +jupyter-research \(\w+\) +paying for nothing: GPU \d+ %/);
		expect(frame).toMatch(/^Events \(\d+\) · 24h, newest first/m);
		expect(frame).toMatch(/TIME +TYPE +SUBJECT +WHAT/);
		const total = Number(/^Events \((\d+)\)/m.exec(frame)![1]);
		expect(total).toBeGreaterThan(1);
		// Newest first: the rows' times never go up.
		const times = [...frame.matchAll(/^(\d\d:\d\d:\d\d) /gm)].map(match => match[1]!);
		expect(times.length).toBeGreaterThan(1);
		expect(times).toEqual(times.toSorted().toReversed());

		await press('/');
		await press('jupyter');
		await press(keys.enter);
		const filtered = await frameMatching(lastFrame, /^Events \(1\/\d+\) \/jupyter/m);
		expect(filtered).toMatch(/alert\.firing +jupyter-research/);
		expect(filtered.split('\n').filter(line => line.includes('alert.firing'))).toHaveLength(1);
		await press('/');
		for (const _ of 'jupyter') {
			await press('\u007F');
		}

		await press(keys.enter);
		// Unfiltered again: every event (more than before, perhaps: the timeline is re-read every 5 s while events are recorded).
		const unfiltered = await frameMatching(lastFrame, /^Events \(\d+\) · 24h/m);
		expect(Number(/^Events \((\d+)\)/m.exec(unfiltered)![1])).toBeGreaterThanOrEqual(total);
		await press('j');
		await press('j');
		expect(view.getState().events.index).toBe(2);
		await press('G');
		expect(view.getState().events.index).toBe(view.getState().events.count - 1);
		await press(keys.escape);
		await frameMatching(lastFrame, /^Endpoints \(\d+\)/m);
	}, 60_000);
});
