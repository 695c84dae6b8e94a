#!/usr/bin/env node
// `npm run bench`, the agent's figures: what 20 attached `podtop watch` cost the service against one
// polling on its own (counted at the simulator), and how long a change takes from the agent's store
// to an attached client. Prints numbers; asserts nothing.
import {spawn} from 'node:child_process';
import {createHash} from 'node:crypto';
import {mkdtempSync, readdirSync} from 'node:fs';
import {createConnection} from 'node:net';
import {tmpdir} from 'node:os';
import path from 'node:path';
import {fileURLToPath} from 'node:url';
import {startSimulator} from '../../dist/sim/start-simulator.js';

const cli = fileURLToPath(new URL('../../dist/bundle/podtop.js', import.meta.url));
const seconds = Number(process.env.AGENT_BENCH_SECONDS ?? 30);
const sleep = ms => new Promise(resolve => setTimeout(resolve, ms));

const sim = await startSimulator({port: 0, load: true, endpointCount: 50, podCount: 200});
const runtime = mkdtempSync(path.join(tmpdir(), 'podtop-bench-agent-'));
const service = ['--api-url', `${sim.url}/v2`, '--graphql-url', `${sim.url}/graphql`];
const env = {...process.env, RUNPOD_API_KEY: sim.apiKey, XDG_RUNTIME_DIR: runtime, NODE_ENV: 'production'};
const children = [];
const start = (...args) => {
	const child = spawn(process.execPath, [cli, ...args, ...service], {env, stdio: ['ignore', 'ignore', 'pipe']});
	children.push(child);
	return child;
};

const stop = async child => {
	child.kill('SIGTERM');
	await new Promise(resolve => child.once('close', resolve));
};

const stats = async () => (await fetch(`${sim.url}/__sim/stats`, {headers: {authorization: `Bearer ${sim.apiKey}`}})).json();
/** Every request the service saw in a steady stretch (after the first round settled). */
async function requestsOver(ms) {
	await sleep(3000);
	await fetch(`${sim.url}/__sim/stats/reset`, {method: 'POST', headers: {authorization: `Bearer ${sim.apiKey}`}});
	await sleep(ms);
	let total = 0;
	for (const [scope, operations] of Object.entries((await stats()).endpoints)) {
		for (const [operation, counter] of Object.entries(operations)) {
			if (scope === 'graphql' || !operation.startsWith('group:')) {
				total += counter.requests;
			}
		}
	}

	return total;
}

console.log(`agent: 50 endpoints, 200 pods, load on; requests the service saw in ${seconds} s`);
const alone = start('watch', '--jsonl', '--no-agent');
const direct = await requestsOver(seconds * 1000);
await stop(alone);
console.log(`  1 podtop watch polling on its own       ${String(direct).padStart(6)}`);

const agent = start('agent');
await sleep(1000);
const watchers = Array.from({length: 20}, () => start('watch', '--jsonl'));
const attached = await requestsOver(seconds * 1000);
console.log(`  podtop agent + 20 attached podtop watch ${String(attached).padStart(6)}  (${(attached / direct).toFixed(2)}× one)`);

// A change's way from the agent's store to a client: each event carries when the agent had it.
const socketPath = path.join(
	runtime,
	'podtop',
	readdirSync(path.join(runtime, 'podtop')).find(name => name.endsWith('.sock')),
);
const proof = createHash('sha256').update(`podtop agent account\0${sim.apiKey}`).digest('hex');
const delays = [];
const socket = createConnection(socketPath);
let pending = '';
socket.setEncoding('utf8');
socket.write(`${JSON.stringify({type: 'hello', protocol: 1, account: proof})}\n`);
socket.on('data', chunk => {
	const now = Date.now();
	pending += chunk;
	const lines = pending.split('\n');
	pending = lines.pop();
	for (const line of lines) {
		const event = JSON.parse(line);
		if (event.type !== 'snapshot' && event.type !== 'tick') {
			delays.push(now - Date.parse(event.at));
		}
	}
});
await sleep(seconds * 1000);
socket.destroy();
delays.sort((a, b) => a - b);
const at = share => delays[Math.min(delays.length - 1, Math.floor(share * delays.length))];
console.log(`  change → attached client (21 attached): ${delays.length} events, p50 ${at(0.5)} ms, p95 ${at(0.95)} ms, max ${delays.at(-1)} ms`);

await Promise.all([...watchers, agent].map(stop));
await sim.close();
