// What V8's collector does in the steady dashboard (500 endpoints, 2,000 living pods, Pods pane shown,
// history recorded), read from `--trace-gc-nvp` on the pty: scavenges and full collections a minute,
// their time on the main thread and on V8's helper threads, and what is promoted. At this scale the
// collector is about half of podtop's CPU (45-55 %), and each MB a minute promoted costs about six times a MB
// allocated, so these figures judge a change in 2-3 minutes where the CPU's own moves by ±0.4 points.
//   node scripts/bench/gc-trace.js [seconds] [podtop.js of a build] [extra Node flags…]
// Started as `node podtop.js` (the flags go before the script); the first minute is left out.
import {mkdtempSync, rmSync} from 'node:fs';
import {tmpdir} from 'node:os';
import path from 'node:path';
import {cli, sleep, startPodtop, startSim, waitForOutput, paneCount} from './pty.js';

const [secondsText = '150', bundle = cli, ...flags] = process.argv.slice(2);
const seconds = Number(secondsText);
if (!Number.isFinite(seconds) || seconds <= 0) {
	console.error('usage: node scripts/bench/gc-trace.js [seconds] [podtop.js] [node flags…]');
	process.exit(2);
}

const sim = await startSim(['--endpoints', '500', '--pods', '2000']);
const state = mkdtempSync(path.join(tmpdir(), 'podtop-gc-trace-'));
const session = startPodtop({
	simUrl: sim.url,
	launch: 'node',
	bundle: path.resolve(bundle),
	nodeArgs: ['--trace-gc-nvp', ...flags],
	extraEnv: {XDG_STATE_HOME: state},
});
let trace = '';
session.listeners.add(chunk => {
	trace += chunk.toString('latin1');
});
try {
	await waitForOutput(session, paneCount('Endpoints', 500), 60_000);
	session.press('2');
	await waitForOutput(session, paneCount('Pods', 2000), 60_000);
	await sleep(60_000);
	trace = '';
	await sleep(seconds * 1000);
} finally {
	session.stop();
	await sleep(2500);
	sim.stop();
	rmSync(state, {recursive: true, force: true});
}

/** A figure of one trace line (0 when it is not there). */
const figure = (line, name) => Number(new RegExp(`(?:^| )${name}=([0-9.]+)`).exec(line)?.[1] ?? 0);
const helperFields = [
	'background.scavenge.parallel',
	'background.mark',
	'background.sweep',
	'background.evacuate.copy',
	'background.evacuate.update_pointers',
	'background.unmapper',
];
const kinds = new Map();
for (const line of trace.replaceAll('\r', '\n').match(/pause=[^\n]*/g) ?? []) {
	const kind = /gc=(\w+)/.exec(line)?.[1] ?? '?';
	const sum = kinds.get(kind) ?? {count: 0, reducing: 0, mainMs: 0, helperMs: 0, promoted: 0};
	sum.count++;
	sum.reducing += figure(line, 'reduce_memory');
	// Its pause, and the incremental marking steps done on the main thread before a full collection's pause.
	sum.mainMs += figure(line, 'pause') + figure(line, 'incremental.steps_took') + figure(line, 'incremental');
	sum.helperMs += helperFields.reduce((total, name) => total + figure(line, name), 0);
	sum.promoted += figure(line, 'promoted');
	kinds.set(kind, sum);
}

const perMinute = value => (value / seconds) * 60;
const names = {s: 'scavenges', mc: 'full collections'};
let total = 0;
console.log(`collector over ${seconds} s after the first minute (node launch, 500 endpoints + 2,000 pods)`);
for (const [kind, sum] of kinds) {
	total += sum.mainMs + sum.helperMs;
	console.log(
		`  ${(names[kind] ?? kind).padEnd(17)} ${perMinute(sum.count).toFixed(1)} a minute${kind === 'mc' ? ` (${sum.reducing} reducing memory)` : ''}, main ${perMinute(sum.mainMs).toFixed(0)} ms/min, helpers ${perMinute(sum.helperMs).toFixed(0)} ms/min${kind === 's' ? `, promoted ${(perMinute(sum.promoted) / 1_048_576).toFixed(1)} MB/min` : ''}`,
	);
}

console.log(`  collector in all    ${perMinute(total).toFixed(0)} ms a minute (${((perMinute(total) / 60_000) * 100).toFixed(2)} % of a core)`);
