// The demo's simulated past: how long the built-in simulator takes to run its past hours, and podtop
// to receive and record them, until the history is ready to draw. Part one in this process (the
// engine as the dashboard makes it, per span); part two the real program in a pty, as a user starts it.
import {availableParallelism, loadavg} from 'node:os';
import {createEngine} from '../../dist/engine/create-engine.js';
import {cpuSeconds, peakRssBytes, sleep, startPodtop, waitForOutput} from './pty.js';

const median = values => [...values].sort((a, b) => a - b)[Math.floor(values.length / 2)];
const seconds = ms => `${(ms / 1000).toFixed(2)} s`;
const cpuMs = () => {
	const {user, system} = process.cpuUsage();
	return (user + system) / 1000;
};

console.log(`the demo's simulated past (load average ${loadavg()[0].toFixed(1)} on ${availableParallelism()} cores: wall times stretch with it, CPU less)`);

// In this process: createEngine in DEMO, recording, with a past of each span.
for (const hours of [1, 6, 24]) {
	const startedAt = performance.now();
	const cpuBefore = cpuMs();
	const engine = await createEngine({target: {mode: 'demo', warnings: []}, record: true, allVisible: true, history: {demoPastMs: hours * 3_600_000}});
	const created = performance.now();
	engine.start();
	let firstData;
	const unsubscribe = engine.store.subscribe(state => {
		firstData ??= state.pods.order.length > 0 && Object.values(state.endpoints.byId).some(endpoint => endpoint.health) ? performance.now() : undefined;
	});
	await engine.history.ready;
	const ready = performance.now();
	const cpu = cpuMs() - cpuBefore;
	const span = await engine.history.reader()?.span();
	unsubscribe();
	await engine.close();
	console.log(
		`  ${String(hours).padStart(2)} h past: engine ${seconds(created - startedAt)}, first live data ${firstData ? seconds(firstData - startedAt) : 'none'}, history ready ${seconds(ready - startedAt)} (${span ? ((span.to - span.from) / 3_600_000).toFixed(1) : 0} h held), CPU of both threads ${seconds(cpu)}`,
	);
}

// The real program in a pty: first frame, first live figures, and the header saying the past is recorded.
const runs = [];
for (let run = 0; run < 3; run++) {
	const session = startPodtop({args: []});
	const frame = await waitForOutput(session, /podtop.{0,40}DEMO/, 30_000);
	const data = await waitForOutput(session, /embeddings-bge-m3 +\d+/, 120_000);
	const ready = await waitForOutput(session, /past 2h simulated/, 120_000);
	const pid = session.pid();
	runs.push({frame: frame - session.startedAt, data: data - session.startedAt, ready: ready - session.startedAt, cpu: cpuSeconds(pid), rss: peakRssBytes(pid)});
	session.stop();
	await sleep(500);
}

const pick = key => median(runs.map(run => run[key]));
console.log(`  podtop --demo in a pty (median of ${runs.length}):`);
console.log(`    first frame ${seconds(pick('frame'))}   goal ≤ 0.40 s`);
console.log(`    first live figures ${seconds(pick('data'))}   (they wait for the simulator to reach its present)`);
console.log(`    the past (2 h) recorded, the header says so ${seconds(pick('ready'))}   goal well under 2 s`);
console.log(`    CPU of the process by then ${pick('cpu').toFixed(2)} s, peak RSS ${(pick('rss') / 1024 / 1024).toFixed(0)} MB`);
