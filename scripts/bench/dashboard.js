// The dashboard's performance goals, measured in a 120×40 pty with the production build.
import {execFileSync, spawn} from 'node:child_process';
import {mkdtempSync, rmSync} from 'node:fs';
import {loadavg, tmpdir} from 'node:os';
import path from 'node:path';
import {cpuSeconds, keyToFrameP95, measure, p95, peakRssBytes, sleep, startPodtop, startSim, waitForOutput, paneCount} from './pty.js';

const mb = bytes => `${(bytes / 1024 / 1024).toFixed(1)} MB`;
const pct = share => `${(share * 100).toFixed(2)} %`;
const median = values => [...values].sort((a, b) => a - b)[Math.floor(values.length / 2)];
const results = [];
const report = (name, value, goal) => {
	results.push({name, value, goal});
	console.log(`  ${name.padEnd(46)} ${value.padStart(12)}   goal ${goal}`);
};

/** `node scripts/bench/dashboard.js steady` measures the steady-at-scale case alone (`npm run build` first). */
const all = process.argv[2] !== 'steady';
const load = () => `load ${loadavg()[0].toFixed(2)}`;

console.log('dashboard (120×40 pty, NODE_ENV=production)');

// First frame: from spawn to the first frame on the terminal, against a simulator in its own process.
if (all) {
	const sim = await startSim(['--no-load']);
	const times = [];
	for (let run = 0; run < 5; run++) {
		const session = startPodtop({simUrl: sim.url});
		times.push((await waitForOutput(session, /podtop.{0,40}LIVE/)) - session.startedAt);
		session.stop();
		await sleep(500);
	}

	report('first frame after spawn (median of 5)', `${median(times).toFixed(0)} ms`, '≤ 400 ms');
	sim.stop();
}

// Idle: nothing changes (no load, no pods), so nothing should be drawn.
if (all) {
	const sim = await startSim(['--no-load', '--pods', '0', '--endpoints', '8']);
	const session = startPodtop({simUrl: sim.url});
	await waitForOutput(session, paneCount('Endpoints', 8));
	// Cold starts finish and podtop's own rates settle at zero within a minute; from then on nothing changes.
	await sleep(60_000);
	const idle = await measure(session, 20);
	report('idle CPU (no data change)', pct(idle.cpu), '≤ 1 %');
	report('idle bytes written', `${idle.bytesPerSecond.toFixed(1)} B/s`, '0 B/s');
	session.stop();
	sim.stop();
}

// Steady state: the demo fleet with its load generator, default cadence.
if (all) {
	const sim = await startSim([]);
	const session = startPodtop({simUrl: sim.url});
	await waitForOutput(session, paneCount('Endpoints', 8));
	await sleep(5000);
	const endpoints = await measure(session, 20);
	report('steady CPU, Endpoints pane', pct(endpoints.cpu), '≤ 3 %');
	report('steady bytes written, Endpoints pane', `${(endpoints.bytesPerSecond / 1024).toFixed(2)} KB/s`, '≤ 2 KB/s');
	session.press('2');
	await sleep(3000);
	const pods = await measure(session, 20);
	report('steady CPU, Pods pane', pct(pods.cpu), '≤ 3 %');
	report('steady bytes written, Pods pane', `${(pods.bytesPerSecond / 1024).toFixed(2)} KB/s`, '≤ 2 KB/s');
	session.stop();
	sim.stop();
}

// Submit: y on the form's confirmation → the job view's first frame. The /run round trip on loopback
// is measured on its own and taken out, so the figure is podtop's own work.
if (all) {
	const sim = await startSim(['--no-load', '--pods', '0', '--endpoints', '8']);
	const session = startPodtop({simUrl: sim.url});
	await waitForOutput(session, paneCount('Endpoints', 8));
	const total = [];
	for (let run = 0; run < 30; run++) {
		session.press('n');
		await waitForOutput(session, /New job on/);
		session.press('\u0013');
		await waitForOutput(session, /y\/N/);
		session.text = '';
		const sent = performance.now();
		session.press('y');
		await waitForOutput(session, /Job \S+ on \S+ +Esc back/);
		total.push(performance.now() - sent);
		session.press('\u001B');
		await waitForOutput(session, paneCount('Endpoints', 8));
		session.text = '';
		await sleep(100);
	}

	const listing = await fetch(`${sim.url}/graphql`, {
		method: 'POST',
		headers: {authorization: 'Bearer bench-key', 'content-type': 'application/json'},
		body: JSON.stringify({query: '{ myself { endpoints { id } } }'}),
	});
	const [endpoint] = (await listing.json()).data.myself.endpoints;
	const roundTrips = [];
	for (let run = 0; run < 30; run++) {
		const sent = performance.now();
		await fetch(`${sim.url}/v2/${endpoint.id}/run`, {
			method: 'POST',
			headers: {authorization: 'Bearer bench-key', 'content-type': 'application/json'},
			body: JSON.stringify({input: {prompt: 'Hello from podtop'}}),
		}).then(response => response.arrayBuffer());
		roundTrips.push(performance.now() - sent);
	}

	report('submit (y) to job view, with loopback /run (p95)', `${p95(total).toFixed(1)} ms`, '(for reference)');
	report('submit to job view, network excluded (p95)', `${Math.max(0, p95(total) - median(roundTrips)).toFixed(1)} ms`, '≤ 100 ms');
	session.stop();
	sim.stop();
}

/** Key→frame latency over `presses` j/k presses, RSS now and at peak, and CPU while nothing is pressed. */
async function fleetCase({endpoints, pods, label}) {
	const sim = await startSim(['--no-load', '--endpoints', String(endpoints), '--pods', String(pods)]);
	const session = startPodtop({simUrl: sim.url});
	await waitForOutput(session, new RegExp(`Endpoints [(]${endpoints}[)]`), 60_000);
	session.press('2');
	await waitForOutput(session, new RegExp(`Pods [(]${pods}[)]`), 60_000);
	await sleep(3000);
	report(`keypress to updated frame, ${label} (p95)`, `${(await keyToFrameP95(session, 60)).toFixed(1)} ms`, '≤ 50 ms');
	// Idle: back on the Endpoints pane (pods hidden, polled every 20 s), nothing pressed, no load.
	session.press('1');
	await sleep(5000);
	const idle = await measure(session, 120);
	report(`idle CPU, ${label}`, pct(idle.cpu), '≤ 2 %');
	report(`RSS, ${label} (now)`, mb(idle.rss), endpoints >= 1000 ? '≤ 150 MB' : '≤ 120 MB');
	report(`RSS, ${label} (peak)`, mb(peakRssBytes(session.pid())), endpoints >= 1000 ? '≤ 150 MB' : '≤ 120 MB');
	session.stop();
	sim.stop();
}

/**
Steady at scale: the living fleet (utilisation, uptime and stock change at every poll), the Pods
pane shown, nobody typing. Started as the bin (the shebang's Node flags) and as `node
dist/bundle/podtop.js` (no flags: a checkout, busybox env without -S, npm's Windows shim), recording
history as a new user's dashboard does (into a state folder of its own: the bench's HOME does not
exist, where podtop runs without history), and once more with --no-history.
*/
async function steadyAtScale(launch, history = true) {
	const state = mkdtempSync(path.join(tmpdir(), 'podtop-bench-state-'));
	const sim = await startSim(['--endpoints', '500', '--pods', '2000']);
	const session = startPodtop({simUrl: sim.url, launch, extraEnv: {XDG_STATE_HOME: state}, args: history ? [] : ['--no-history']});
	await waitForOutput(session, paneCount('Endpoints', 500), 60_000);
	session.press('2');
	await waitForOutput(session, paneCount('Pods', 2000), 60_000);
	// The first minute holds one-off work (the first minute's rollup prepares its statements, code warms up, the heap
	// finds its size): 4 % in the 30 s after a 30 s wait. Measured from then, three minutes: one minute of one build moved
	// by ±0.4 points between runs (this VM's speed moves by half within minutes), three by about half that. Each minute
	// is shown beside the mean.
	await sleep(60_000);
	const minutes = [];
	for (let minute = 0; minute < 3; minute++) {
		minutes.push(await measure(session, 60));
	}

	const cpu = minutes.reduce((sum, each) => sum + each.cpu, 0) / minutes.length;
	const label = `${launch === 'node' ? 'node podtop.js' : 'bin'}${history ? '' : ', --no-history'}`;
	const rss = `${(minutes.at(-1).rss / 1024 / 1024).toFixed(1)} / ${mb(peakRssBytes(session.pid()))}`;
	// The machine's load beside the figure: on a shared host another process's work slows this one's too.
	report(`steady CPU at scale, ${label}`, pct(cpu), `≤ 2 % (minutes ${minutes.map(each => (each.cpu * 100).toFixed(2)).join(', ')}; ${load()})`);
	report(`steady RSS at scale, ${label} (now / peak)`, rss, '≤ 120 MB');
	report(`keypress to updated frame at scale, ${label} (p95)`, `${(await keyToFrameP95(session, 40)).toFixed(1)} ms`, '≤ 50 ms');
	session.stop();
	sim.stop();
	await sleep(2000);
	rmSync(state, {recursive: true, force: true});
}

console.log('  steady at scale: 500 endpoints, 2,000 pods, load on, Pods pane shown, nobody typing, history recorded');
await steadyAtScale('bin');
await steadyAtScale('node');
await steadyAtScale('bin', false);

if (all) {
	await fleetCase({endpoints: 500, pods: 2000, label: '500 endpoints, 2,000 pods'});
	await fleetCase({endpoints: 1000, pods: 10_000, label: '1,000 endpoints, 10,000 pods'});
}

// For comparison: htop in the same pty, when it is installed.
if (all) {
	try {
		execFileSync('htop', ['--version'], {stdio: 'ignore'});
		const child = spawn('script', ['-qfec', 'stty cols 120 rows 40; exec htop -d 20', '/dev/null'], {
			stdio: ['pipe', 'pipe', 'inherit'],
			env: {...process.env, TERM: 'xterm-256color'},
		});
		let bytes = 0;
		child.stdout.on('data', chunk => {
			bytes += chunk.length;
		});
		await sleep(3000);
		const pid = Number(execFileSync('pgrep', ['-P', String(child.pid)], {encoding: 'utf8'}).trim());
		const cpuBefore = cpuSeconds(pid);
		const bytesBefore = bytes;
		await sleep(20_000);
		report('htop -d 20: CPU', pct((cpuSeconds(pid) - cpuBefore) / 20), '(comparison)');
		report('htop -d 20: bytes written', `${((bytes - bytesBefore) / 20 / 1024).toFixed(2)} KB/s`, '(comparison)');
		child.stdin.write('q');
		setTimeout(() => child.kill('SIGKILL'), 1000).unref();
	} catch {
		console.log('  htop is not installed: no comparison (apt-get install htop to get one)');
	}
}

process.exit(0);
