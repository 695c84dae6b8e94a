#!/usr/bin/env node
// Billing requests per route per 5 minutes in steady state (the goal: at most 1; the service bills in
// 5-minute runs), as the Spend pane reads each window every 5 minutes and the exporter's feed reads
// today's bills: with the bills kept in the history file, side by side with --no-history. Counted by
// the simulator (`/__sim/stats`) over `rounds` 5-minute runs after the first read; podtop's clock for
// its bills is moved 5 minutes a round (the simulator answers at its own time). Prints numbers; asserts nothing.
// `npm run build && node scripts/bench/billing-requests.js [rounds]` (default 12: an hour).
import {mkdtempSync, rmSync} from 'node:fs';
import {tmpdir} from 'node:os';
import path from 'node:path';
import {createEngine} from '../../dist/engine/create-engine.js';
import {spendQueries} from '../../dist/rows/spend-figures.js';
import {createSpendFeed} from '../../dist/serve/spend-metrics.js';
import {startSimulator} from '../../dist/sim/start-simulator.js';

const rounds = Number(process.argv[2] ?? 12);
const runMs = 300_000;
const splits = ['category', 'pod', 'endpoint', 'volume'];

async function perRoutePerRun(reader, history) {
	const sim = await startSimulator({port: 0, load: false, endpointCount: 9, podCount: 12, restQuota: {minute: 10_000, hour: 100_000, day: 1_000_000}});
	const directory = mkdtempSync(path.join(tmpdir(), 'podtop-bench-bills-'));
	let clock = Date.now();
	const engine = await createEngine({
		target: {mode: 'live', apiUrl: `${sim.url}/v2`, graphqlUrl: `${sim.url}/graphql`, apiKey: sim.apiKey, warnings: []},
		poll: [],
		history: history ? {directory} : {disabled: true},
		billClock: () => clock,
	});
	const headers = {authorization: `Bearer ${sim.apiKey}`};
	const read = reader(engine, () => clock);
	await read();
	await fetch(`${sim.url}/__sim/stats/reset`, {method: 'POST', headers});
	for (let round = 0; round < rounds; round++) {
		clock += runMs;
		await read();
	}

	const stats = await (await fetch(`${sim.url}/__sim/stats`, {headers})).json();
	await engine.close();
	await sim.close();
	rmSync(directory, {recursive: true, force: true});
	const billing = Object.entries(stats.endpoints.rest ?? {}).filter(([route]) => route.includes('/billing'));
	return Math.max(0, ...billing.map(([, {requests}]) => requests / rounds));
}

/** The Spend pane showing `window`: its account read and its three resource reads, once a round. */
const pane = window => (engine, now) => async () => {
	const queries = spendQueries(window, now());
	await Promise.all(splits.map(async split => engine.spend(split === 'category' ? queries.account : queries.resources, split)));
};

/** The exporter's feed: today's bills, once a round. */
const feed = (engine, now) => {
	const today = createSpendFeed(engine.spend, {now, start: false});
	return today.read;
};

/** Both in one process (an agent with --export whose user opens the pane): the feed's day is the pane's. */
const both = (engine, now) => {
	const [first, second] = [pane('30d')(engine, now), feed(engine, now)];
	return async () => {
		await first();
		await second();
	};
};

console.log(`billing requests per route per 5 minutes, the busiest route, over ${rounds} runs after the first read`);
console.log('reader            kept in history  --no-history');
for (const [name, reader] of [
	['Spend pane 24h', pane('24h')],
	['Spend pane 30d', pane('30d')],
	['exporter feed', feed],
	['pane 30d + feed', both],
]) {
	const kept = await perRoutePerRun(reader, true);
	const none = await perRoutePerRun(reader, false);
	console.log(`${name.padEnd(16)}  ${kept.toFixed(2).padStart(15)}  ${none.toFixed(2).padStart(12)}`);
}
