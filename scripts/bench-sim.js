#!/usr/bin/env node
// Loads the simulator from a separate process at the published per-endpoint limits
// (2,000 /status + 1,000 /run per 10 s on one endpoint) and prints sustained requests per
// second and p50/p99 latency per operation. Usage: node scripts/bench-sim.js [--seconds 20] [--fraction 1]
import {spawn} from 'node:child_process';
import {readFileSync} from 'node:fs';
import {parseArgs} from 'node:util';
import {Pool} from 'undici';

const {values} = parseArgs({options: {seconds: {type: 'string', default: '20'}, fraction: {type: 'string', default: '1'}}});
const seconds = Number(values.seconds);
const fraction = Number(values.fraction);
const rates = {status: 200 * fraction, run: 100 * fraction};
const apiKey = 'bench-key';

const sim = spawn(process.execPath, [new URL('../dist/bundle/podtop.js', import.meta.url).pathname, 'sim', '--port', '0', '--no-load'], {
	stdio: ['ignore', 'pipe', 'inherit'],
	env: {...process.env, NODE_ENV: 'production', PODTOP_SIM_API_KEY: apiKey},
});
let banner = '';
const url = await new Promise((resolve, reject) => {
	sim.stdout.setEncoding('utf8');
	sim.stdout.on('data', text => {
		banner += text;
		const match = /listening on (\S+)/.exec(banner);
		if (match && banner.includes('Ctrl-C')) {
			resolve(match[1]);
		}
	});
	sim.once('exit', code => reject(new Error(`simulator exited with ${code}`)));
});
const endpoint = /(\w{14}) \(embeddings-bge-m3\)/.exec(banner)[1];

const cpuTicks = () => {
	const fields = readFileSync(`/proc/${sim.pid}/stat`, 'utf8').split(') ')[1].split(' ');
	return Number(fields[11]) + Number(fields[12]);
};

const pool = new Pool(url, {connections: 64, keepAliveTimeout: 60_000, headersTimeout: 5000, bodyTimeout: 5000, connect: {timeout: 5000}});
const headers = {authorization: `Bearer ${apiKey}`, 'content-type': 'application/json'};
const results = {status: {latencies: [], codes: {}}, run: {latencies: [], codes: {}}};
const jobIds = [];

async function send(operation) {
	const path = operation === 'run' ? `/v2/${endpoint}/run` : `/v2/${endpoint}/status/${jobIds[Math.floor(Math.random() * jobIds.length)] ?? 'none'}`;
	const started = performance.now();
	try {
		const response = await pool.request({
			path,
			method: operation === 'run' ? 'POST' : 'GET',
			headers,
			body: operation === 'run' ? JSON.stringify({input: {texts: ['hello world'], delay_ms: 50}}) : undefined,
		});
		const body = await response.body.text();
		results[operation].latencies.push(performance.now() - started);
		results[operation].codes[response.statusCode] = (results[operation].codes[response.statusCode] ?? 0) + 1;
		if (operation === 'run' && response.statusCode === 200) {
			jobIds.push(JSON.parse(body).id);
		}
	} catch (error) {
		results[operation].codes[error.code ?? 'error'] = (results[operation].codes[error.code ?? 'error'] ?? 0) + 1;
	}
}

// Open-loop pacing: requests go out on schedule whether or not earlier ones have answered.
const startedAt = performance.now();
const cpuBefore = cpuTicks();
const pending = new Set();
const sent = {status: 0, run: 0};
await new Promise(resolve => {
	const tick = () => {
		const elapsed = (performance.now() - startedAt) / 1000;
		for (const operation of ['run', 'status']) {
			// /status starts half a second later, once there are jobs to ask about.
			const since = operation === 'status' ? elapsed - 0.5 : elapsed;
			const due = Math.max(0, Math.min(Math.floor(since * rates[operation]), Math.floor(seconds * rates[operation])));
			while (sent[operation] < due) {
				sent[operation]++;
				const promise = send(operation).finally(() => pending.delete(promise));
				pending.add(promise);
			}
		}

		if (elapsed >= seconds + 0.5) {
			resolve();
		} else {
			setTimeout(tick, 2);
		}
	};

	tick();
});
await Promise.all(pending);
const wall = (performance.now() - startedAt) / 1000;
const cpuSeconds = (cpuTicks() - cpuBefore) / 100;
await pool.close();
sim.kill('SIGTERM');

const percentile = (sorted, p) => sorted[Math.min(sorted.length - 1, Math.floor(sorted.length * p))] ?? Number.NaN;
console.log(
	`podtop simulator under load for ${seconds} s on one endpoint (offered ${Math.round(rates.status * 10)} /status + ${Math.round(rates.run * 10)} /run per 10 s)`,
);
console.log('operation  sent   ok/s   p50 ms  p99 ms  max ms  responses');
for (const operation of ['status', 'run']) {
	const {latencies, codes} = results[operation];
	const sorted = latencies.sort((a, b) => a - b);
	const ok = codes[200] ?? 0;
	console.log(
		`${operation.padEnd(9)}  ${String(sent[operation]).padEnd(5)}  ${(ok / wall).toFixed(1).padStart(5)}  ${percentile(sorted, 0.5).toFixed(2).padStart(6)}  ${percentile(sorted, 0.99).toFixed(2).padStart(6)}  ${sorted.at(-1).toFixed(2).padStart(6)}  ${JSON.stringify(codes)}`,
	);
}

console.log(`simulator CPU: ${cpuSeconds.toFixed(2)} s over ${wall.toFixed(1)} s (${((cpuSeconds / wall) * 100).toFixed(1)} % of one core)`);
