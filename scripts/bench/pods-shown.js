#!/usr/bin/env node
// How soon the Pods pane, once shown, asks for the full list: from `focus('pods')` to the
// simulator's answer to the next GraphQL request, after a hidden poll fetched summaries, at the default cadence. The pane asks at once rather than at
// its next poll (test/engine/pod-summaries.test.ts checks that, with no clock); this is the figure,
// beside the poll interval it beats. Prints numbers; asserts nothing.
import {performance} from 'node:perf_hooks';
import {createEngine} from '../../dist/engine/create-engine.js';
import {defaultCadence} from '../../dist/poll/cadence.js';
import {startSimulator} from '../../dist/sim/start-simulator.js';

const runs = 7;
const sim = await startSimulator({port: 0, load: false, endpointCount: 50, podCount: 200, graphqlRate: 1000});
const engine = await createEngine({
	poll: ['pods'],
	target: {mode: 'live', apiUrl: `${sim.url}/v2`, graphqlUrl: `${sim.url}/graphql`, apiKey: sim.apiKey, warnings: []},
});
const pods = () => engine.store.getState().pods;
const until = async check => {
	while (!(await check())) {
		await new Promise(resolve => setTimeout(resolve, 2));
	}
};

/** GraphQL requests the simulator has answered. */
const graphqlRequests = async () => {
	const stats = await (await fetch(`${sim.url}/__sim/stats`, {headers: {authorization: `Bearer ${sim.apiKey}`}})).json();
	return stats.endpoints.graphql?.request?.requests ?? 0;
};

engine.focus('endpoints');
engine.start();
await until(() => pods().order.length > 0);
const times = [];
for (let run = 0; run < runs; run++) {
	// Hidden, a poll (asked for, as the test does) fetches summaries: the pane, shown, wants the full list.
	engine.focus('endpoints');
	const hidden = await graphqlRequests();
	engine.refresh();
	await until(async () => (await graphqlRequests()) > hidden);
	await new Promise(resolve => setTimeout(resolve, 100));
	const before = await graphqlRequests();
	const started = performance.now();
	engine.focus('pods');
	await until(async () => (await graphqlRequests()) > before);
	times.push(performance.now() - started);
}

await engine.close();
await sim.close();
times.sort((a, b) => a - b);
const median = times[Math.floor(runs / 2)];
console.log(
	`Pods pane shown -> its list asked for (50 endpoints, 200 pods, ${runs} runs): median ${median.toFixed(0)} ms, worst ${times.at(-1).toFixed(0)} ms;` +
		` the pane's poll interval is ${defaultCadence.podsMs} ms (median ${((median / defaultCadence.podsMs) * 100).toFixed(1)} % of it)`,
);
