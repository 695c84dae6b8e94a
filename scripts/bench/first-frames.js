// Two builds' first frames side by side, against one simulator (500 endpoints, 2,000 pods unless told), in a
// 120×40 pty: from spawn to the first frame, to the Endpoints pane's figures (its full count), to the Pods
// pane's after `2`; then key→frame p95 on the Pods pane (40 j/k presses). The builds take turns, A then B
// then A…, so load drifts alike for both; medians of each. Prints numbers; asserts nothing.
//   node scripts/bench/first-frames.js A/podtop.js[@node] B/podtop.js[@node] [runs] [endpoints] [pods]
// (a build's podtop.js where Node finds libsql; `@node` runs it on another Node binary, as side-by-side.js does).
import {mkdtempSync, rmSync} from 'node:fs';
import {loadavg, tmpdir} from 'node:os';
import path from 'node:path';
import {keyToFrameP95, paneCount, sleep, startPodtop, startSim, waitForOutput} from './pty.js';

const [bundleA, bundleB, runsText = '5', endpoints = '500', pods = '2000'] = process.argv.slice(2);
if (!bundleA || !bundleB) {
	console.error('usage: node scripts/bench/first-frames.js A/podtop.js[@node] B/podtop.js[@node] [runs] [endpoints] [pods]');
	process.exit(2);
}

const median = values => [...values].sort((a, b) => a - b)[Math.floor(values.length / 2)];
const sim = await startSim(['--endpoints', endpoints, '--pods', pods]);
const figures = {A: {frame: [], endpoints: [], pods: [], keys: []}, B: {frame: [], endpoints: [], pods: [], keys: []}};
try {
	for (let run = 0; run < Number(runsText); run++) {
		for (const [name, argument] of [
			['A', bundleA],
			['B', bundleB],
		]) {
			const [bundle, node = process.execPath] = argument.split('@');
			const state = mkdtempSync(path.join(tmpdir(), 'podtop-first-'));
			const session = startPodtop({simUrl: sim.url, bundle: path.resolve(bundle), node, extraEnv: {XDG_STATE_HOME: state}});
			try {
				figures[name].frame.push((await waitForOutput(session, /podtop.{0,40}LIVE/, 60_000)) - session.startedAt);
				figures[name].endpoints.push((await waitForOutput(session, paneCount('Endpoints', endpoints), 120_000)) - session.startedAt);
				const pressed = performance.now();
				session.press('2');
				figures[name].pods.push((await waitForOutput(session, paneCount('Pods', pods), 120_000)) - pressed);
				await sleep(3000);
				figures[name].keys.push(await keyToFrameP95(session, 40));
			} finally {
				session.stop();
				await sleep(1500);
				rmSync(state, {recursive: true, force: true});
			}
		}

		console.log(
			`run ${run + 1}: ${['A', 'B'].map(name => `${name} frame ${figures[name].frame.at(-1).toFixed(0)} ms, endpoints ${figures[name].endpoints.at(-1).toFixed(0)} ms, pods ${figures[name].pods.at(-1).toFixed(0)} ms, key→frame p95 ${figures[name].keys.at(-1).toFixed(1)} ms`).join(' | ')} | load ${loadavg()[0].toFixed(2)}`,
		);
	}

	const line = (label, key, digits = 0) => {
		const [a, b] = [median(figures.A[key]), median(figures.B[key])];
		console.log(`${label.padEnd(34)} A ${a.toFixed(digits).padStart(7)}  B ${b.toFixed(digits).padStart(7)}  B/A ${(b / a).toFixed(2)}`);
	};

	console.log(`medians of ${runsText} runs each, ${endpoints} endpoints + ${pods} pods, 120×40`);
	line('first frame after spawn (ms)', 'frame');
	line('Endpoints figures after spawn (ms)', 'endpoints');
	line('Pods figures after `2` (ms)', 'pods');
	line('key→frame p95 (ms)', 'keys', 1);
} finally {
	sim.stop();
}
