// The time cursor over a week of 1,000 endpoints + 10,000 pods: `[` pressed in the real dashboard
// (a 120×40 pty), from the key to the frame that shows the account at the new moment (the banner at
// the new time and the "reading…" line gone). The dashboard reads the file; the benchmark holds the
// writer's lock, as an agent recording it would, so the week is read as generated. Beside each
// key→frame, the CPU the dashboard spent from the key to the frame (its polls of 10,000 pods
// included when one falls in): on a machine shared with other work, what the frame would take alone.
import {linkSync, mkdirSync, mkdtempSync, rmSync} from 'node:fs';
import {tmpdir} from 'node:os';
import path from 'node:path';
import {formatClock} from '../../dist/format/clock.js';
import {historyFileName, takeWriterLock} from '../../dist/history/history-file.js';
import {cpuSeconds, sleep, startPodtop, startSim, waitForOutput, paneCount} from './pty.js';
import {trackScreen, waitForScreen} from './screen.js';
import {weekFleet} from './history-week.js';

const p95 = values => [...values].sort((a, b) => a - b)[Math.min(values.length - 1, Math.floor(values.length * 0.95))];
const median = values => [...values].sort((a, b) => a - b)[Math.floor(values.length / 2)];

/** Runs `act` (a key and the wait for its frame) and adds its wall and CPU milliseconds to `into`. */
async function timed(session, into, act) {
	const pid = session.pid();
	const cpu = cpuSeconds(pid);
	const sent = performance.now();
	await act();
	into.wall.push(performance.now() - sent);
	into.cpu.push((cpuSeconds(pid) - cpu) * 1000);
}

/**
Presses `[` `presses` times from `from` on the pane shown, `pause` ms after each frame; each step's
key→frame and CPU in ms. With a pause (someone stepping), the dashboard reads the next step's moment
ahead in it; with none (a key held down), every step reads its own.
*/
async function steps(session, screen, from, presses, pause) {
	const shows = at => s => s.rows.some(row => row?.includes(`AT ${formatClock(at)}`)) && !s.rows.some(row => row?.includes('reading '));
	session.press(':');
	await sleep(200);
	session.press(`at ${new Date(from).toISOString()}\r`);
	await waitForScreen(session, screen, shows(from), 30_000);
	await sleep(500);
	const latencies = {wall: [], cpu: []};
	let at = from;
	for (let press = 0; press < presses; press++) {
		at -= 60_000;
		await timed(session, latencies, async () => {
			session.press('[');
			await waitForScreen(session, screen, shows(at), 30_000);
		});
		await sleep(pause);
	}

	session.press('.');
	await sleep(500);
	return latencies;
}

/**
A window change in an endpoint's details, 6 h → 24 h (`>`), from the key to the frame whose title says
24h with its charts drawn (no "reading"): each endpoint once, so each reads its day from the file.
*/
async function windowChanges(session, screen, endpoints) {
	const titled = window => s => s.rows.some(row => row?.includes('Esc back · ' + window)) && !s.rows.some(row => /reading \d/.test(row ?? ''));
	const latencies = {wall: [], cpu: []};
	for (let index = 0; index < endpoints; index++) {
		session.press('\r');
		await waitForScreen(session, screen, titled('1h'), 30_000);
		session.press('>');
		await waitForScreen(session, screen, titled('6h'), 30_000);
		await sleep(500);
		await timed(session, latencies, async () => {
			session.press('>');
			await waitForScreen(session, screen, titled('24h'), 30_000);
		});
		// Back to 1 h for the next endpoint's details, then the next one in the list.
		session.press('<');
		await sleep(200);
		session.press('<');
		await sleep(200);
		session.press('\u001B');
		await sleep(500);
		session.press('j');
		await sleep(300);
	}

	return latencies;
}

/**
The figures of the time cursor. Each case presses `[` `presses` times: with 20, a p95 was the slowest step
(the 19th of 20), which is whichever step the dashboard's own poll of 10,000 pods (every 60 s) landed in.
*/
export async function cursorBench({week, report, presses = 60}) {
	process.env.TZ = 'UTC';
	const sim = await startSim(['--no-load', '--seed', String(weekFleet.seed), '--endpoints', String(weekFleet.endpoints), '--pods', String(weekFleet.pods)]);
	const state = mkdtempSync(path.join(tmpdir(), 'podtop-bench-cursor-'));
	const folder = path.join(state, 'podtop', 'history');
	mkdirSync(folder, {recursive: true, mode: 0o700});
	const file = path.join(folder, historyFileName({apiUrl: `${sim.url}/v2`, graphqlUrl: `${sim.url}/graphql`, apiKey: 'bench-key'}));
	linkSync(week.file, file);
	const lock = takeWriterLock(file);
	const session = startPodtop({simUrl: sim.url, extraEnv: {XDG_STATE_HOME: state, TZ: 'UTC'}});
	const screen = trackScreen(session);
	try {
		await waitForOutput(session, paneCount('Endpoints', 1000), 60_000);
		await sleep(3000);
		const windows = await windowChanges(session, screen, 10);
		report(
			"window change 6 h → 24 h in an endpoint's details, key→frame (p95)",
			`${p95(windows.wall).toFixed(0)} ms`,
			'≤ 100 ms',
			`median ${median(windows.wall).toFixed(0)} ms; CPU median ${median(windows.cpu).toFixed(0)}, p95 ${p95(windows.cpu).toFixed(0)} ms`,
		);
		const recent = week.to - 10 * 60_000;
		const older = week.to - 3 * 86_400_000 - 5 * 60_000;
		const cases = [
			['Endpoints pane, raw tier (the last hour)', recent, '', 300],
			['Endpoints pane, minute tier (3 days back)', older, '', 300],
			['Pods pane, raw tier', recent, '2', 300],
			['Pods pane, raw tier, key held (no read-ahead)', recent, '', 0],
		];
		for (const [label, from, key, pause] of cases) {
			if (key) {
				session.press(key);
				await sleep(3000);
			}

			const latencies = await steps(session, screen, from, presses, pause);
			report(
				`cursor step [ key→frame, ${label} (p95)`,
				`${p95(latencies.wall).toFixed(0)} ms`,
				'≤ 150 ms',
				`median ${median(latencies.wall).toFixed(0)} ms, slowest ${Math.max(...latencies.wall).toFixed(0)} ms of ${presses}; CPU median ${median(latencies.cpu).toFixed(0)}, p95 ${p95(latencies.cpu).toFixed(0)} ms`,
			);
		}
	} finally {
		session.stop();
		await sleep(1000);
		lock?.release();
		sim.stop();
		rmSync(state, {recursive: true, force: true});
	}
}
