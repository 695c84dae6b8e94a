import {mkdtempSync, rmSync} from 'node:fs';
import {tmpdir} from 'node:os';
import {join} from 'node:path';
import {afterEach, describe, expect, test} from 'vitest';
import {startTestSim, type TestSim} from '../helpers/sim-client.js';
import {hasTmux, TmuxSession} from '../helpers/tmux.js';

let session: TmuxSession | undefined;
let sim: TestSim | undefined;
let directory: string | undefined;
afterEach(async () => {
	session?.close();
	session = undefined;
	await sim?.close();
	sim = undefined;
	if (directory) {
		rmSync(directory, {recursive: true, force: true});
		directory = undefined;
	}
});

const braille = /[\u2801-\u28FF]/;

/** The real dashboard recording a simulator's account into its history file, then drawing it. */
describe.runIf(hasTmux)('charts from history in a real terminal', () => {
	test('after half a minute of recording, the endpoint details chart it over 10 minutes: queue, workers, jobs finished, failed, with min, max and time', async () => {
		sim = await startTestSim({load: true});
		directory = mkdtempSync(join(tmpdir(), 'podtop-e2e-history-'));
		session = new TmuxSession(120, 40, ['--api-url', `${sim.url}/v2`, '--graphql-url', `${sim.url}/graphql`, '--history-dir', directory], {
			RUNPOD_API_KEY: sim.apiKey,
		});
		let screen = await session.waitFor(/Endpoints \(9\) · 1h[\s\S]*llama-3-8b-instruct-v\S*(?: +\d+){3}/);
		// The queue trend of the rows on screen comes from history: each row's cell is drawn.
		expect(screen).toMatch(/QUEUE TREND/);
		// Half a minute of polls (health every 5 s for the endpoints on screen) recorded.
		await new Promise(resolve => setTimeout(resolve, 30_000));
		session.send('/');
		session.type('llama-3-8b');
		session.send('Enter');
		await session.waitFor(/Endpoints \(1\/9\) \/llama-3-8b · 1h/);
		session.send('Enter');
		screen = await session.waitFor(/llama-3-8b-instruct-vllm \([a-z\d]{14}\) {2}Esc back · 1h < > window/);
		session.send('<');
		// The hour stays drawn (saying "reading 10m…") until the ten minutes come.
		screen = await session.waitFor(/Esc back · 10m < > window[\s\S]*jobs finished {2}mean \d/, 10_000);
		const deadline = Date.now() + 10_000;
		while (screen.includes('reading 10m') && Date.now() < deadline) {
			await new Promise(resolve => setTimeout(resolve, 200));
			screen = session.screen();
		}

		expect(screen).toMatch(/queue {2}in queue \d+ {2}in progress \d+/);
		expect(screen).toMatch(/workers {2}run \d+ {2}idle \d+ {2}init \d+ {2}thr \d+ {2}unh \d+/);
		expect(screen).toMatch(/failed {2}mean \d/);
		// A time axis: labels every two minutes across ten.
		const axis = screen.split('\n').find(line => /^ {6,}\d\d:\d\d +\d\d:\d\d/.test(line));
		expect(axis, screen).toBeDefined();
		// The recorded half minute is drawn at the right of the queue chart, the rest of the ten minutes empty.
		const lines = screen.split('\n');
		const queueTitle = lines.findIndex(line => /^queue {2}in queue/.test(line));
		const plot = lines.slice(queueTitle + 1, queueTitle + 12).map(line => line.slice(7, 59));
		expect(
			plot.some(line => braille.test(line)),
			screen,
		).toBe(true);
		expect(
			plot.every(line => !braille.test(line.slice(0, 20))),
			screen,
		).toBe(true);
		expect(screen.trimEnd().split('\n').length).toBeLessThanOrEqual(39);
		session.send('q');
		await session.waitFor(/PODTOP-EXIT 0/);
	}, 90_000);
});
