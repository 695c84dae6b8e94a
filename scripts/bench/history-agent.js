// The agent recording a large account: `podtop agent` against `podtop sim` with 1,000 endpoints and
// 10,000 pods (load on), its CPU share of one core over a steady stretch and its RSS, with history
// and with --no-history (the difference is what recording costs it).
import {spawn} from 'node:child_process';
import {mkdtempSync, rmSync} from 'node:fs';
import {tmpdir} from 'node:os';
import path from 'node:path';
import {cli, cpuSeconds, peakRssBytes, rssBytes, sleep, startSim} from './pty.js';

async function agentRun(sim, extra, {warmupS, measureS}) {
	const state = mkdtempSync(path.join(tmpdir(), 'podtop-bench-agent-history-'));
	const env = {...process.env, NODE_ENV: 'production', RUNPOD_API_KEY: 'bench-key', XDG_RUNTIME_DIR: state, XDG_STATE_HOME: state};
	const child = spawn(process.execPath, [cli, 'agent', '--api-url', `${sim.url}/v2`, '--graphql-url', `${sim.url}/graphql`, ...extra], {
		env,
		stdio: ['ignore', 'ignore', 'pipe'],
	});
	let log = '';
	child.stderr.setEncoding('utf8');
	child.stderr.on('data', text => {
		log += text;
	});
	try {
		await sleep(warmupS * 1000);
		const before = cpuSeconds(child.pid);
		const started = performance.now();
		await sleep(measureS * 1000);
		const elapsed = (performance.now() - started) / 1000;
		return {cpu: (cpuSeconds(child.pid) - before) / elapsed, rss: rssBytes(child.pid), peakRss: peakRssBytes(child.pid), log};
	} finally {
		child.kill('SIGTERM');
		await new Promise(resolve => {
			child.once('close', resolve);
		});
		rmSync(state, {recursive: true, force: true});
	}
}

/** {recording, without}: each {cpu (share of one core), rss, peakRss (bytes)}. */
export async function agentCost({endpoints = 1000, pods = 10_000, warmupS = 45, measureS = 60} = {}) {
	const sim = await startSim(['--seed', '23', '--endpoints', String(endpoints), '--pods', String(pods)]);
	try {
		const recording = await agentRun(sim, [], {warmupS, measureS});
		const without = await agentRun(sim, ['--no-history'], {warmupS, measureS});
		return {recording, without};
	} finally {
		sim.stop();
	}
}
