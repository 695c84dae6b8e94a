// Peak RSS of the store holding 2,000 pods and 10,000 tracked jobs (run in its own process).
import {readFileSync} from 'node:fs';
import {spawn} from 'node:child_process';
import {createGraphqlApi} from '../../dist/api/graphql-api.js';
import {Pools} from '../../dist/api/pools.js';
import {createPodtopStore} from '../../dist/store/create-store.js';

const peakRss = () => Number(/VmHWM:\s+(\d+)/.exec(readFileSync('/proc/self/status', 'utf8'))[1]) * 1024;

// The fleet comes from a simulator in another process, so this process holds only what podtop would.
const sim = spawn(
	process.execPath,
	[
		new URL('../../dist/bundle/podtop.js', import.meta.url).pathname,
		'sim',
		'--port',
		'0',
		'--no-load',
		'--pods',
		'2000',
		'--endpoints',
		'500',
		'--graphql-rate',
		'1000',
	],
	{stdio: ['ignore', 'pipe', 'inherit'], env: {...process.env, PODTOP_SIM_API_KEY: 'bench'}},
);
const url = await new Promise(resolve => {
	let banner = '';
	sim.stdout.setEncoding('utf8');
	sim.stdout.on('data', text => {
		banner += text;
		const match = /listening on (\S+)/.exec(banner);
		if (match) {
			resolve(match[1]);
		}
	});
});
const pools = new Pools();
const api = createGraphqlApi({url: `${url}/graphql`, apiKey: 'bench', pools});
const pods = await api.pods();
const endpoints = await api.endpoints();
await pools.close();
sim.kill('SIGTERM');
globalThis.gc?.();
const baseline = process.memoryUsage().rss;

const {store, writes: actions} = createPodtopStore({mode: 'demo', apiHost: 'bench', keyFingerprint: '••••test'});
actions.setEndpoints(endpoints, 0);
// Sixty polls of 2,000 pods whose utilisation changes every time: full histories.
for (let round = 0; round < 60; round++) {
	actions.setPods(
		pods.map(pod =>
			pod.runtime
				? {...pod, runtime: {...pod.runtime, gpus: pod.runtime.gpus.map(gpu => ({...gpu, gpuUtilPercent: (gpu.gpuUtilPercent + round) % 100}))}}
				: pod,
		),
		round * 5000,
	);
}

// 10,000 tracked jobs with their final status and a small output (what status polls bring); 200 of
// them were opened in the job view and streamed 16 KB of text, the last 20 are still open with the
// full 256 KB each.
const chunk = n => ({output: {text: [`token ${n} `.repeat(40)]}, metrics: {avg_gen_throughput: 80, gpu_kv_cache_usage: 0.4}});
for (let index = 0; index < 10_000; index++) {
	const endpoint = endpoints[index % endpoints.length].id;
	const followed = index >= 10_000 - 20;
	const opened = index % 50 === 0 || followed;
	const key = actions.trackJob(endpoint, `job-${index}`, {at: index, follow: opened});
	for (let round = 0; round < (followed ? 700 : opened ? 45 : 0); round++) {
		actions.appendStream(key, 'IN_PROGRESS', [chunk(round)], index);
	}

	actions.updateJob(
		key,
		{id: `job-${index}`, status: 'COMPLETED', delayTime: 120, executionTime: 3400, workerId: 'w', output: {input_tokens: 12, output_tokens: 400}},
		index,
	);
	if (!followed) {
		actions.setFollow(key, false);
	}
}

globalThis.gc?.();
const state = store.getState();
const text = [...state.jobs.byKey.values()].reduce((sum, job) => sum + job.text.length, 0);
process.stdout.write(
	`${JSON.stringify({pods: state.pods.order.length, jobs: state.jobs.byKey.size, endpoints: state.endpoints.order.length, textBytes: text, rss: process.memoryUsage().rss, heapUsed: process.memoryUsage().heapUsed, peakRss: peakRss(), baselineRss: baseline})}\n`,
);
