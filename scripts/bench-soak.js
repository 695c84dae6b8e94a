#!/usr/bin/env node
// `npm run bench:soak`: the dashboard and `podtop watch` for an hour (SOAK_MINUTES) against the simulator at
// --speed 10 with faults on (5xx, resets, latency; no 429 storms). Prints heap and RSS growth per hour of both, the
// 429s podtop received (must be 0), crashes (must be 0), and the worst staleness `watch` reported.
// Not part of CI: it takes as long as it says.
import {spawn} from 'node:child_process';
import {mkdtempSync, readFileSync} from 'node:fs';
import {tmpdir} from 'node:os';
import path from 'node:path';
import {cli, rssBytes as rss, sleep, startPodtop, waitForOutput} from './bench/pty.js';

const minutes = Number(process.env.SOAK_MINUTES ?? 60);
// Histories (health, utilisation, stock) fill during the first minutes: growth is measured after that.
const warmup = Math.min(10, Math.floor(minutes / 3));
const faults = [
	{kind: 'status', status: 503, share: 0.02},
	{kind: 'reset', share: 0.01, operation: 'health'},
	{kind: 'truncated', share: 0.01, operation: 'stream'},
	{kind: 'latency', delayMs: 50, jitterMs: 400, share: 0.2},
];
const mb = bytes => `${(bytes / 1024 / 1024).toFixed(1)} MB`;
// Each process appends its heap every 2 s (scripts/bench/heap-probe.js); a minute's figure is its lowest heapUsed.
const probeFolder = mkdtempSync(path.join(tmpdir(), 'podtop-soak-'));
const probe = name => ({
	NODE_OPTIONS: `--import=${new URL('bench/heap-probe.js', import.meta.url).pathname}`,
	PODTOP_HEAP_PROBE: path.join(probeFolder, `${name}.jsonl`),
});
const heapOfLastMinute = name => {
	let samples = [];
	try {
		samples = readFileSync(path.join(probeFolder, `${name}.jsonl`), 'utf8')
			.trim()
			.split('\n')
			.map(line => JSON.parse(line));
	} catch {}

	const recent = samples.filter(sample => sample.time >= Date.now() - 60_000);
	return recent.length > 0 ? Math.min(...recent.map(sample => sample.heapUsed)) : Number.NaN;
};

const sim = spawn(process.execPath, [cli, 'sim', '--port', '0', '--speed', '10', '--graphql-rate', '100', '--faults', JSON.stringify(faults)], {
	stdio: ['ignore', 'pipe', 'inherit'],
	env: {...process.env, NODE_ENV: 'production', PODTOP_SIM_API_KEY: 'soak-key'},
});
const url = await new Promise(resolve => {
	let banner = '';
	sim.stdout.on('data', text => {
		banner += text;
		const match = /listening on (\S+)/.exec(banner);
		if (match && banner.includes('Ctrl-C')) {
			resolve(match[1]);
		}
	});
});
const stats = async () => (await fetch(`${url}/__sim/stats`, {headers: {authorization: 'Bearer soak-key'}})).json();

const dashboard = startPodtop({simUrl: url, apiKey: 'soak-key', extraEnv: probe('dashboard')});
let crashes = 0;
dashboard.child.on('exit', code => {
	if (code !== 0) {
		crashes++;
	}
});
await waitForOutput(dashboard, /Endpoints \(8\)/, 30_000);

const watch = spawn(process.execPath, [cli, 'watch', '--jsonl', '--api-url', `${url}/v2`, '--graphql-url', `${url}/graphql`], {
	stdio: ['ignore', 'pipe', 'inherit'],
	env: {...process.env, NODE_ENV: 'production', RUNPOD_API_KEY: 'soak-key', ...probe('watch')},
});
watch.on('exit', code => {
	if (code !== null && code !== 0 && code !== 130) {
		crashes++;
	}
});
let worstStaleMs = 0;
const staleSince = new Map();
let pending = '';
watch.stdout.on('data', chunk => {
	pending += chunk;
	const lines = pending.split('\n');
	pending = lines.pop();
	for (const line of lines) {
		const event = JSON.parse(line);
		if (event.type !== 'connection') {
			continue;
		}

		if (event.stale) {
			staleSince.set(event.source, staleSince.get(event.source) ?? Date.parse(event.since));
		} else if (staleSince.has(event.source)) {
			worstStaleMs = Math.max(worstStaleMs, Date.now() - staleSince.get(event.source));
			staleSince.delete(event.source);
		}
	}
});

await sleep(10_000);
const reading = () => ({
	time: Date.now(),
	dashboard: rss(dashboard.pid()),
	watch: rss(watch.pid),
	dashboardHeap: heapOfLastMinute('dashboard'),
	watchHeap: heapOfLastMinute('watch'),
});
let start = reading();
await fetch(`${url}/__sim/stats/reset`, {method: 'POST', headers: {authorization: 'Bearer soak-key'}});
console.log(`soak: ${minutes} min against the simulator at --speed 10, faults ${JSON.stringify(faults)}`);
for (let minute = 1; minute <= minutes; minute++) {
	await sleep(60_000);
	const now = reading();
	console.log(
		`  ${String(minute).padStart(3)} min  dashboard heap ${mb(now.dashboardHeap)} RSS ${mb(now.dashboard)}  watch heap ${mb(now.watchHeap)} RSS ${mb(now.watch)}`,
	);
	if (minute === warmup) {
		start = now;
	}
}

const hours = (Date.now() - start.time) / 3_600_000;
const end = reading();
let received429 = 0;
for (const [scope, operations] of Object.entries((await stats()).endpoints)) {
	for (const [operation, counter] of Object.entries(operations)) {
		if (!operation.startsWith('group:') && scope !== '__faults') {
			received429 += counter.rateLimited;
		}
	}
}

const perHour = (from, to) => mb((to - from) / hours);
console.log(
	`  growth per hour after ${warmup} min of warm-up: dashboard heap ${perHour(start.dashboardHeap, end.dashboardHeap)}, RSS ${perHour(start.dashboard, end.dashboard)}; watch heap ${perHour(start.watchHeap, end.watchHeap)}, RSS ${perHour(start.watch, end.watch)}`,
);
console.log(`  429s received: ${received429} (goal 0)`);
console.log(`  crashes: ${crashes} (goal 0)`);
console.log(`  worst staleness watch reported: ${(worstStaleMs / 1000).toFixed(1)} s`);
dashboard.stop();
watch.kill('SIGINT');
sim.kill('SIGTERM');
setTimeout(() => process.exit(0), 2000);
