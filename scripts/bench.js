#!/usr/bin/env node
// `npm run bench`: the figures the issues ask for, measured on this machine. Prints numbers; asserts nothing.
import {spawnSync} from 'node:child_process';
import {fileURLToPath} from 'node:url';
import {createEngine} from '../dist/engine/create-engine.js';
import {defaultCadence} from '../dist/poll/cadence.js';
import {startSimulator} from '../dist/sim/start-simulator.js';

const here = fileURLToPath(new URL('.', import.meta.url));
const mb = bytes => `${(bytes / 1024 / 1024).toFixed(1)} MB`;

async function requestsPerMinute(endpointCount, podCount, seconds, managementApi) {
	const sim = await startSimulator({port: 0, load: true, endpointCount, podCount, graphqlRate: 1000});
	// Every pane counted as visible: the busiest cadence.
	const engine = await createEngine({
		allVisible: true,
		target: {mode: 'live', apiUrl: `${sim.url}/v2`, graphqlUrl: `${sim.url}/graphql`, managementApi, apiKey: sim.apiKey, warnings: []},
	});
	engine.start();
	// Let the first round settle, then count a steady stretch.
	await new Promise(resolve => setTimeout(resolve, 3000));
	await fetch(`${sim.url}/__sim/stats/reset`, {method: 'POST', headers: {authorization: `Bearer ${sim.apiKey}`}});
	await new Promise(resolve => setTimeout(resolve, seconds * 1000));
	const stats = await (await fetch(`${sim.url}/__sim/stats`, {headers: {authorization: `Bearer ${sim.apiKey}`}})).json();
	await engine.close();
	await sim.close();
	let jobApi = 0;
	let rateLimited = 0;
	for (const [scope, operations] of Object.entries(stats.endpoints)) {
		for (const [operation, counter] of Object.entries(operations)) {
			if (scope !== 'graphql' && scope !== 'rest' && !operation.startsWith('group:')) {
				jobApi += counter.requests;
			}

			rateLimited += operation.startsWith('group:') ? 0 : counter.rateLimited;
		}
	}

	const graphql = stats.endpoints.graphql?.request?.requests ?? 0;
	const rest = stats.endpoints.rest?.request?.requests ?? 0;
	return {jobApi: (jobApi / seconds) * 60, graphql: (graphql / seconds) * 60, rest: (rest / seconds) * 60, rateLimited};
}

console.log('podtop bench');
console.log(
	`default cadence: health every ${defaultCadence.healthMs / 1000} s (hidden ${defaultCadence.healthHiddenMs / 1000} s), pods every ${defaultCadence.podsMs / 1000} s, GPU types every ${defaultCadence.gpusMs / 1000} s, endpoint list every ${defaultCadence.endpointsMs / 1000} s\n`,
);
console.log('requests per minute to keep N endpoints and P pods fresh (measured against the simulator, 20 s), management over REST v2 and over GraphQL');
console.log('endpoints   pods  management  job API/min  v2/min  GraphQL/min  429s');
for (const [endpoints, pods] of [
	[8, 12],
	[50, 200],
	[500, 2000],
	[1000, 10_000],
]) {
	for (const managementApi of ['v2', 'graphql']) {
		const {jobApi, graphql, rest, rateLimited} = await requestsPerMinute(endpoints, pods, 20, managementApi);
		console.log(
			`${String(endpoints).padStart(9)}  ${String(pods).padStart(5)}  ${managementApi.padEnd(10)}  ${jobApi.toFixed(0).padStart(11)}  ${rest.toFixed(0).padStart(6)}  ${graphql.toFixed(0).padStart(11)}  ${String(rateLimited).padStart(4)}`,
		);
	}
}

const memory = spawnSync(process.execPath, ['--expose-gc', `${here}bench/memory.js`], {encoding: 'utf8', env: {...process.env, NODE_ENV: 'production'}});
if (memory.status === 0) {
	const result = JSON.parse(memory.stdout);
	console.log(
		`\nstore memory: ${result.pods} pods (60 polls of history) + ${result.jobs} tracked jobs (${mb(result.textBytes)} of streamed text) + ${result.endpoints} endpoints`,
	);
	console.log(
		`  RSS after fill ${mb(result.rss)}, peak RSS ${mb(result.peakRss)}, JS heap ${mb(result.heapUsed)} (process baseline before the store: ${mb(result.baselineRss)})`,
	);
} else {
	console.log(`\nstore memory: failed\n${memory.stderr}`);
}

console.log('');
const dashboard = spawnSync(process.execPath, [`${here}bench/dashboard.js`], {stdio: 'inherit', env: {...process.env, NODE_ENV: 'production'}});
if (dashboard.status !== 0) {
	console.log('dashboard benchmark failed');
}

console.log('');
const agent = spawnSync(process.execPath, [`${here}bench/agent.js`], {stdio: 'inherit', env: {...process.env, NODE_ENV: 'production'}});
if (agent.status !== 0) {
	console.log('agent benchmark failed');
}

console.log('');
const image = spawnSync(process.execPath, [`${here}bench/image.js`], {stdio: 'inherit', env: {...process.env, NODE_ENV: 'production'}});
if (image.status !== 0) {
	console.log('image benchmark failed');
}

console.log('');
const demoPast = spawnSync(process.execPath, [`${here}bench/demo-past.js`], {stdio: 'inherit', env: {...process.env, NODE_ENV: 'production'}});
if (demoPast.status !== 0) {
	console.log("the demo's past benchmark failed");
}

console.log('');
const history = spawnSync(process.execPath, [`${here}bench/history.js`], {stdio: 'inherit', env: {...process.env, NODE_ENV: 'production'}});
if (history.status !== 0) {
	console.log('history benchmark failed');
}

console.log('');
const load = spawnSync(process.execPath, [`${here}bench/load.js`], {stdio: 'inherit', env: {...process.env, NODE_ENV: 'production'}});
if (load.status !== 0) {
	console.log('podtop load benchmark failed');
}

console.log('');
const podsShown = spawnSync(process.execPath, [`${here}bench/pods-shown.js`], {stdio: 'inherit', env: {...process.env, NODE_ENV: 'production'}});
if (podsShown.status !== 0) {
	console.log('the Pods pane benchmark failed');
}

console.log('');
const logs = spawnSync(process.execPath, [`${here}bench/logs.js`], {stdio: 'inherit', env: {...process.env, NODE_ENV: 'production'}});
if (logs.status !== 0) {
	console.log('the log view benchmark failed');
}

console.log('');
const billing = spawnSync(process.execPath, [`${here}bench/billing-requests.js`], {stdio: 'inherit', env: {...process.env, NODE_ENV: 'production'}});
if (billing.status !== 0) {
	console.log('the billing requests benchmark failed');
}

console.log('');
const spendPane = spawnSync(process.execPath, [`${here}bench/spend-pane.js`], {stdio: 'inherit', env: {...process.env, NODE_ENV: 'production'}});
if (spendPane.status !== 0) {
	console.log('the Spend pane benchmark failed');
}
