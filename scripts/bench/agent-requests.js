#!/usr/bin/env node
// The management plane's requests a minute of an agent with 20 clients attached, per fleet size, against the
// simulator at the service's default v2 quota, load on: the agent polls as `podtop agent` does (every pane counted
// visible; endpoints, pods, GPU types and workers), and 20 engines attach to its socket as dashboards do. Counted
// by the simulator over a steady stretch after the first lists. Prints numbers; asserts nothing.
// `npm run build && node scripts/bench/agent-requests.js [seconds] [sizes]` (default 120 s, all four sizes).
import {mkdtempSync, rmSync} from 'node:fs';
import {tmpdir} from 'node:os';
import path from 'node:path';
import {createEngine} from '../../dist/engine/create-engine.js';
import {serveAgent} from '../../dist/serve/agent-server.js';
import {startSimulator} from '../../dist/sim/start-simulator.js';

const seconds = Number(process.argv[2] ?? 120);
/** `[sizes]`: how many of the fleet sizes below to run, smallest first (default all four). */
const sizes = Number(process.argv[3] ?? 4);
const clientCount = 20;
const warmUpMs = 5000;
const runtime = mkdtempSync(path.join(tmpdir(), 'podtop-agent-bench-'));
process.env.XDG_RUNTIME_DIR = runtime;

async function requestsPerMinute(endpointCount, podCount) {
	const sim = await startSimulator({port: 0, load: true, endpointCount, podCount, graphqlRate: 1000});
	const target = {mode: 'live', apiUrl: `${sim.url}/v2`, graphqlUrl: `${sim.url}/graphql`, apiKey: sim.apiKey, warnings: []};
	const agent = await createEngine({target, allVisible: true, poll: ['endpoints', 'pods', 'gpus', 'workers'], history: {disabled: true}});
	const server = await serveAgent({store: agent.store, socketPath: agent.agentLink.socketPath, secret: agent.agentLink.secret});
	agent.start();
	while (agent.store.getState().pods.order.length === 0 || agent.store.getState().endpoints.order.length === 0) {
		await new Promise(resolve => setTimeout(resolve, 50));
	}

	const clients = await Promise.all(Array.from({length: clientCount}, async () => createEngine({target, agent: true, history: {disabled: true}})));
	for (const client of clients) {
		client.start();
	}

	while (!clients.every(client => client.store.getState().via === 'agent')) {
		await new Promise(resolve => setTimeout(resolve, 50));
	}

	const headers = {authorization: `Bearer ${sim.apiKey}`};
	await new Promise(resolve => setTimeout(resolve, warmUpMs));
	await fetch(`${sim.url}/__sim/stats/reset`, {method: 'POST', headers});
	await new Promise(resolve => setTimeout(resolve, seconds * 1000));
	const stats = await (await fetch(`${sim.url}/__sim/stats`, {headers})).json();
	await Promise.all(clients.map(async client => client.close()));
	await server.close();
	await agent.close();
	await sim.close();
	const rest = stats.endpoints.rest?.request ?? {requests: 0, rateLimited: 0};
	const graphql = stats.endpoints.graphql?.request ?? {requests: 0, rateLimited: 0};
	return {v2: (rest.requests / seconds) * 60, graphql: (graphql.requests / seconds) * 60, rateLimited: rest.rateLimited + graphql.rateLimited};
}

console.log(`management requests a minute, an agent with ${clientCount} clients attached at the default quota, counted by the simulator over ${seconds} s`);
console.log('endpoints   pods  v2/min  GraphQL/min  429s');
try {
	for (const [endpointCount, podCount] of [
		[9, 12],
		[50, 200],
		[500, 2000],
		[1000, 10_000],
	].slice(0, sizes)) {
		const {v2, graphql, rateLimited} = await requestsPerMinute(endpointCount, podCount);
		console.log(
			`${String(endpointCount).padStart(9)}  ${String(podCount).padStart(5)}  ${v2.toFixed(1).padStart(6)}  ${graphql.toFixed(1).padStart(11)}  ${String(rateLimited).padStart(4)}`,
		);
	}
} finally {
	rmSync(runtime, {recursive: true, force: true});
}
