#!/usr/bin/env node
// The management plane's requests a minute per fleet size, as a dashboard makes them: the Pods pane
// shown (focused) or hidden (the Endpoints pane focused), against the simulator at the service's
// default v2 quota (60 a minute, 3,000 an hour, 50,000 a day), with its load generator on. Counted by
// the simulator (`/__sim/stats`) over a steady stretch after the first reads; the same for the
// GraphQL path (`--management-api graphql`). Prints numbers; asserts nothing.
// The rows a 40-line terminal shows are told to the engine as the dashboard does (`showing`), so a
// list of more than 500 pods is fetched whole less often and its rows on screen every 5 s by id.
// `npm run build && node scripts/bench/v2-requests.js [seconds] [v2,graphql]` (default 120 s a row:
// the slowest loops, the endpoint list and a hidden pane's, come once a minute).
import {createEngine} from '../../dist/engine/create-engine.js';
import {startSimulator} from '../../dist/sim/start-simulator.js';

const seconds = Number(process.argv[2] ?? 120);
const apis = (process.argv[3] ?? 'v2,graphql').split(',');
/** The rows of a pane on a 40-line terminal. */
const rowsOnScreen = 34;
const warmUpMs = 5000;

async function requestsPerMinute({endpointCount, podCount, managementApi, pane}) {
	const sim = await startSimulator({port: 0, load: true, endpointCount, podCount, graphqlRate: 1000});
	const engine = await createEngine({
		target: {mode: 'live', apiUrl: `${sim.url}/v2`, graphqlUrl: `${sim.url}/graphql`, managementApi, apiKey: sim.apiKey, warnings: []},
	});
	engine.focus(pane);
	engine.start();
	const headers = {authorization: `Bearer ${sim.apiKey}`};
	// The opening reads (and the burst) first, the rows on screen told, then a steady stretch.
	while (engine.store.getState().pods.order.length === 0 || engine.store.getState().endpoints.order.length === 0) {
		await new Promise(resolve => setTimeout(resolve, 50));
	}

	engine.showing('endpoints', engine.store.getState().endpoints.order.slice(0, rowsOnScreen));
	if (pane === 'pods') {
		engine.showing('pods', engine.store.getState().pods.order.slice(0, rowsOnScreen));
	}

	await new Promise(resolve => setTimeout(resolve, warmUpMs));
	await fetch(`${sim.url}/__sim/stats/reset`, {method: 'POST', headers});
	await new Promise(resolve => setTimeout(resolve, seconds * 1000));
	const stats = await (await fetch(`${sim.url}/__sim/stats`, {headers})).json();
	await engine.close();
	await sim.close();
	const counter = stats.endpoints[managementApi === 'v2' ? 'rest' : 'graphql']?.request ?? {requests: 0, rateLimited: 0};
	return {perMinute: (counter.requests / seconds) * 60, rateLimited: counter.rateLimited};
}

console.log(
	`management requests a minute, a dashboard at the default quota (${rowsOnScreen} rows on screen), counted by the simulator over ${seconds} s after the first lists and ${warmUpMs / 1000} s`,
);
console.log('endpoints   pods  api      pods shown  pods hidden  429s');
for (const [endpointCount, podCount] of [
	[9, 12],
	[50, 200],
	[500, 2000],
	[1000, 10_000],
]) {
	for (const managementApi of apis) {
		const shown = await requestsPerMinute({endpointCount, podCount, managementApi, pane: 'pods'});
		const hidden = await requestsPerMinute({endpointCount, podCount, managementApi, pane: 'endpoints'});
		console.log(
			`${String(endpointCount).padStart(9)}  ${String(podCount).padStart(5)}  ${managementApi.padEnd(7)}  ${shown.perMinute.toFixed(1).padStart(10)}  ${hidden.perMinute.toFixed(1).padStart(11)}  ${String(shown.rateLimited + hidden.rateLimited).padStart(4)}`,
		);
	}
}
