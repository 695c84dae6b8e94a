#!/usr/bin/env node
// Three podtop dashboards and an agent on one key, at the service's default v2 quota (60 a minute,
// 3,000 an hour, 50,000 a day), for as long as asked (default an hour): the real programs, each
// dashboard in its own tmux terminal (120×40, polling on its own: --no-agent), one on the Pods pane,
// two on Endpoints; the agent beside them. The simulator counts what reaches it and every 429
// (`/__sim/stats`), printed every 5 minutes (or at the end of a shorter run). Prints numbers; asserts nothing.
// `npm run build && node scripts/bench/shared-key.js [minutes] [endpoints] [pods]` (default 60, 50, 200).
import {spawn, spawnSync} from 'node:child_process';
import {mkdirSync, mkdtempSync, rmSync} from 'node:fs';
import {tmpdir} from 'node:os';
import path from 'node:path';
import {fileURLToPath} from 'node:url';

const minutes = Number(process.argv[2] ?? 60);
const endpointCount = Number(process.argv[3] ?? 50);
const podCount = Number(process.argv[4] ?? 200);
const cli = fileURLToPath(new URL('../../dist/cli.js', import.meta.url));
const home = mkdtempSync(path.join(tmpdir(), 'podtop-shared-key-'));
const apiKey = `rpa_SHAREDKEYBENCH${Date.now()}`;
// The key reaches every process through its environment, never its arguments (ps shows those).
const env = {
	...process.env,
	HOME: home,
	XDG_STATE_HOME: path.join(home, 'state'),
	XDG_CONFIG_HOME: path.join(home, 'config'),
	XDG_RUNTIME_DIR: path.join(home, 'run'),
	RUNPOD_API_KEY: apiKey,
	PODTOP_SIM_API_KEY: apiKey,
};
mkdirSync(env.XDG_RUNTIME_DIR, {mode: 0o700});
const tmuxSocket = `podtop-shared-key-${process.pid}`;
const tmux = (...args) => spawnSync('tmux', ['-L', tmuxSocket, ...args], {env, encoding: 'utf8'});

const sim = spawn(process.execPath, [cli, 'sim', '--port', '0', '--endpoints', String(endpointCount), '--pods', String(podCount)], {env});
const url = await new Promise((resolve, reject) => {
	let said = '';
	const read = text => {
		said += text;
		const found = /http:\/\/127\.0\.0\.1:\d+/.exec(said);
		if (found) {
			resolve(found[0]);
		}
	};

	sim.stdout.setEncoding('utf8').on('data', read);
	sim.stderr.setEncoding('utf8').on('data', read);
	sim.once('exit', code => reject(new Error(`the simulator exited (${code}): ${said}`)));
});
const connection = ['--api-url', `${url}/v2`, '--rest-url', url, '--graphql-url', `${url}/graphql`];
const agent = spawn(process.execPath, [cli, 'agent', ...connection], {env, stdio: 'ignore'});
for (const [index, pane] of ['pods', 'endpoints', 'endpoints'].entries()) {
	const command = [process.execPath, cli, '--no-agent', ...connection].map(word => `'${word}'`).path.join(' ');
	const started = tmux(
		index === 0 ? 'new-session' : 'new-window',
		...(index === 0 ? ['-d', '-x', '120', '-y', '40', '-s', 'bench'] : ['-t', 'bench']),
		`${command}; sleep 600`,
	);
	if (started.status !== 0) {
		throw new Error(`tmux: ${started.stderr}`);
	}

	if (pane === 'pods') {
		setTimeout(() => tmux('send-keys', '-t', `bench:${index}`, 'Tab'), 15_000).unref();
	}
}

const headers = {authorization: `Bearer ${apiKey}`};
const startedAt = Date.now();
console.log(
	`three dashboards (one on Pods) and an agent on one key at the default v2 quota, ${endpointCount} endpoints + ${podCount} pods, ${minutes} min; counted by the simulator`,
);
console.log('minute  v2 requests  v2/min since last  v2 429s  GraphQL requests  GraphQL 429s');
let last = 0;
const report = async () => {
	const stats = await (await fetch(`${url}/__sim/stats`, {headers})).json();
	const rest = stats.endpoints.rest?.request ?? {requests: 0, rateLimited: 0};
	const graphql = stats.endpoints.graphql?.request ?? {requests: 0, rateLimited: 0};
	const minute = (Date.now() - startedAt) / 60_000;
	console.log(
		`${minute.toFixed(0).padStart(6)}  ${String(rest.requests).padStart(11)}  ${((rest.requests - last) / stepMinutes).toFixed(1).padStart(17)}  ${String(rest.rateLimited).padStart(7)}  ${String(graphql.requests).padStart(16)}  ${String(graphql.rateLimited).padStart(12)}`,
	);
	last = rest.requests;
};

const stepMinutes = Math.min(5, minutes);
for (let elapsed = stepMinutes; elapsed <= minutes; elapsed += stepMinutes) {
	await new Promise(resolve => setTimeout(resolve, stepMinutes * 60_000));
	await report();
}

tmux('kill-server');
agent.kill('SIGTERM');
sim.kill('SIGTERM');
await new Promise(resolve => sim.once('exit', resolve));
rmSync(home, {recursive: true, force: true});
