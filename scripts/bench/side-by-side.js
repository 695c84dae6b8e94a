// Two builds of the dashboard at once against one simulator (500 endpoints, 2,000 living pods unless told, Pods pane
// shown, each with its own history), so that load and the simulator's events are the same for both:
// one minute of the steady bench moves by ±0.4 points between runs of one build, this by about 0.15.
// Then each one's key→frame p95 (40 j/k presses, one build after the other).
//   node scripts/bench/side-by-side.js A/podtop.js[@node] B/podtop.js[@node] [minutes] [bin|node] [endpoints] [pods]
// A build's podtop.js must sit where Node finds libsql (under this checkout: copy dist/bundle to dist/side-a/).
// `@node` runs that build on another Node binary (today's build on its runtime beside this one on its own).
import {mkdtempSync, readdirSync, rmSync} from 'node:fs';
import {loadavg, tmpdir} from 'node:os';
import path from 'node:path';
import {keyToFrameP95, peakRssBytes, rssBytes, sleep, startPodtop, startSim, statCpuSeconds, waitForOutput, paneCount} from './pty.js';

const [bundleA, bundleB, minutesText = '4', launch = 'bin', endpoints = '500', pods = '2000'] = process.argv.slice(2);
if (!bundleA || !bundleB) {
	console.error('usage: node scripts/bench/side-by-side.js A/podtop.js[@node] B/podtop.js[@node] [minutes] [bin|node] [endpoints] [pods]');
	process.exit(2);
}

/** CPU seconds of all the process's threads and of its main thread. */
function cpu(pid) {
	let all = 0;
	let main = 0;
	for (const thread of readdirSync(`/proc/${pid}/task`)) {
		try {
			const seconds = statCpuSeconds(`/proc/${pid}/task/${thread}/stat`);
			all += seconds;
			main += thread === String(pid) ? seconds : 0;
		} catch {}
	}

	return {all, main};
}

const sim = await startSim(['--endpoints', endpoints, '--pods', pods]);
const states = [];
const sessions = [bundleA, bundleB].map(argument => {
	const [bundle, node = process.execPath] = argument.split('@');
	const state = mkdtempSync(path.join(tmpdir(), 'podtop-side-'));
	states.push(state);
	return startPodtop({simUrl: sim.url, launch, bundle: path.resolve(bundle), node, extraEnv: {XDG_STATE_HOME: state}});
});
try {
	for (const session of sessions) {
		await waitForOutput(session, paneCount('Endpoints', endpoints), 120_000);
		session.press('2');
		await waitForOutput(session, paneCount('Pods', pods), 120_000);
	}

	// The first minute's one-off work (statements prepared, code warming, the heap finding its size) left out.
	await sleep(90_000);
	const pids = sessions.map(session => session.pid());
	let last = pids.map(pid => cpu(pid));
	const shares = [[], []];
	for (let window = 0; window < Number(minutesText) * 2; window++) {
		await sleep(30_000);
		const now = pids.map(pid => cpu(pid));
		const line = now.map((used, index) => {
			const share = ((used.all - last[index].all) / 30) * 100;
			shares[index].push(share);
			return `${'AB'[index]} ${share.toFixed(2)} % (main ${(((used.main - last[index].main) / 30) * 100).toFixed(2)}) RSS ${(rssBytes(pids[index]) / 1_048_576).toFixed(0)} MB`;
		});
		console.log(`${line.join(' | ')} | load ${loadavg()[0].toFixed(2)}`);
		last = now;
	}

	const mean = values => values.reduce((sum, value) => sum + value, 0) / values.length;
	console.log(
		`mean A ${mean(shares[0]).toFixed(2)} %, B ${mean(shares[1]).toFixed(2)} % of a core; peak RSS A ${(peakRssBytes(pids[0]) / 1_048_576).toFixed(1)}, B ${(peakRssBytes(pids[1]) / 1_048_576).toFixed(1)} MB`,
	);
	const keys = [];
	for (const session of sessions) {
		keys.push(await keyToFrameP95(session, 40));
	}

	console.log(`key→frame p95 A ${keys[0].toFixed(1)} ms, B ${keys[1].toFixed(1)} ms; load ${loadavg()[0].toFixed(2)}`);
} finally {
	for (const session of sessions) {
		session.stop();
	}

	await sleep(2500);
	sim.stop();
	for (const state of states) {
		rmSync(state, {recursive: true, force: true});
	}
}
