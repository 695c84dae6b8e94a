#!/usr/bin/env node
// `podtop load` against a simulator with no worker delay (its own process): the rate it sustains
// at the most it is allowed (--budget 1: the whole /run limit), how far its figures are from the
// simulator's own job records, and its RSS over 100,000 jobs. Prints numbers; asserts nothing.
import {spawn} from 'node:child_process';
import {createServer} from 'node:net';
import {fileURLToPath} from 'node:url';

const cli = fileURLToPath(new URL('../../dist/bundle/podtop.js', import.meta.url));
const key = 'bench-load-key';
const mb = bytes => `${(bytes / 1024 / 1024).toFixed(1)} MB`;

async function freePort() {
	const server = createServer();
	await new Promise(resolve => {
		server.listen(0, '127.0.0.1', resolve);
	});
	const {port} = server.address();
	await new Promise(resolve => {
		server.close(resolve);
	});
	return port;
}

/**
A simulator in a process of its own, no background load, its rate limits scaled by `scale`: one
echo endpoint with `workers` workers kept up (jobs with no delay start at once).
*/
async function startSim(scale, workers) {
	const port = await freePort();
	const start = new URL('../../dist/sim/start-simulator.js', import.meta.url).href;
	const options = {
		port,
		load: false,
		apiKey: key,
		rateLimitScale: scale,
		endpoints: [{id: 'bench', workersMin: workers, workersMax: workers, flashBoot: true}],
	};
	const child = spawn(
		process.execPath,
		[
			'--input-type=module',
			'-e',
			`const {startSimulator} = await import(${JSON.stringify(start)}); await startSimulator(${JSON.stringify(options)}); console.log('listening');`,
		],
		{env: {...process.env, NODE_ENV: 'production'}, stdio: ['ignore', 'pipe', 'inherit']},
	);
	await new Promise(resolve => {
		child.stdout.on('data', text => {
			if (String(text).includes('listening')) {
				resolve();
			}
		});
	});
	const url = `http://127.0.0.1:${port}`;
	const call = async path => (await fetch(`${url}${path}`, {headers: {authorization: `Bearer ${key}`}})).json();
	return {url, call, endpointId: 'bench', workers, close: () => child.kill('SIGTERM')};
}

const nearestRank = (values, p) => values.toSorted((a, b) => a - b)[Math.max(1, Math.ceil((p / 100) * values.length)) - 1];

async function atTheLimit(seconds) {
	const sim = await startSim(1, 20);
	const rate = 100;
	const child = spawn(
		process.execPath,
		[
			cli,
			'load',
			sim.endpointId,
			'--input',
			'{"delay_ms": 0}',
			'--rate',
			`${rate}/s`,
			'--duration',
			`${seconds}s`,
			'--budget',
			'1',
			'--yes',
			'--json',
			'--api-url',
			`${sim.url}/v2`,
			'--graphql-url',
			`${sim.url}/graphql`,
		],
		{env: {...process.env, RUNPOD_API_KEY: key, NODE_ENV: 'production', XDG_STATE_HOME: '/tmp/podtop-bench-load'}},
	);
	let stdout = '';
	child.stdout.on('data', text => {
		stdout += text;
	});
	await new Promise(resolve => {
		child.on('close', resolve);
	});
	const summary = JSON.parse(stdout);
	const stats = (await sim.call('/__sim/stats')).endpoints[sim.endpointId];
	const {jobs} = await sim.call(`/__sim/jobs/${sim.endpointId}`);
	sim.close();
	console.log(
		`at the limit: --budget 1 allows /run ${rate}/s (1000 per 10 s); ${summary.jobs.sent} jobs over ${seconds} s to ${sim.workers} echo workers with no delay`,
	);
	console.log(
		`  sent ${summary.jobs.sent} in ${(summary.elapsedMs / 1000).toFixed(2)} s (${summary.throughput.sentPerSecond.toFixed(1)}/s, the follow-up included), ended ${summary.jobs.completed + summary.jobs.failed}, not sent ${summary.jobs.submitErrors}`,
	);
	console.log(
		`  simulator: /run ${stats.run.requests} requests, busiest 10 s ${stats.run.peakWindow} of 1000, 429s ${stats.run.rateLimited}; /status ${stats.status?.requests ?? 0} (${((stats.status?.requests ?? 0) / summary.jobs.sent).toFixed(2)} a job), 429s ${stats.status?.rateLimited ?? 0}`,
	);
	let worst = 0;
	const rows = [];
	for (const name of ['delay', 'execution', 'total']) {
		const values = jobs.map(job => (name === 'delay' ? job.delayTime : name === 'execution' ? job.executionTime : job.delayTime + job.executionTime));
		const cells = [50, 90, 95, 99].map(p => {
			const difference = Math.abs(summary[name][`p${p}`] - nearestRank(values, p));
			worst = Math.max(worst, difference);
			return `p${p} ${summary[name][`p${p}`]}/${nearestRank(values, p)}`;
		});
		rows.push(`    ${name.padEnd(9)} ${cells.join('  ')} ms (podtop/simulator)`);
	}

	console.log(`  latency podtop adds to what it reports: at most ${worst} ms (its percentiles against the simulator's job records)`);
	console.log(rows.join('\n'));
	console.log(
		`  submit round trip (podtop's /run answered, its wait for a budget slot included): p50 ${summary.submit.p50} ms, p99 ${summary.submit.p99} ms, max ${summary.submit.max} ms`,
	);
}

async function hundredThousand(count, rate) {
	// In this process, through podtop's own scheduled API with limits raised to match the simulator's (×100): its RSS is podtop's alone.
	const sim = await startSim(100, 50);
	const {createJobApi} = await import('../../dist/api/job-api.js');
	const {createCompatApi} = await import('../../dist/api/compat-api.js');
	const {createGraphqlApi} = await import('../../dist/api/graphql-api.js');
	const {Pools} = await import('../../dist/api/pools.js');
	const {Scheduler} = await import('../../dist/poll/scheduler.js');
	const {createScheduledApi} = await import('../../dist/poll/scheduled-api.js');
	const {LoadRun} = await import('../../dist/engine/load-run.js');
	const pools = new Pools();
	const limit = {perWindow: rate * 20, windowMs: 10_000, concurrency: 200};
	const scheduler = new Scheduler({limitFor: () => limit});
	const api = createScheduledApi({
		jobApi: createJobApi({baseUrl: `${sim.url}/v2`, apiKey: key, pools}),
		compatApi: createCompatApi({baseUrl: `${sim.url}/v2`, apiKey: key, pools}),
		graphqlApi: createGraphqlApi({url: `${sim.url}/graphql`, apiKey: key, pools}),
		scheduler,
	});
	const run = new LoadRun({
		endpointId: sim.endpointId,
		request: {input: {delay_ms: 0}},
		ratePerSecond: rate,
		jobs: count,
		concurrency: undefined,
		sync: undefined,
		submitsInFlight: 100,
		statusInFlight: 100,
	});
	const samples = [];
	const marks = new Set([10_000, 25_000, 50_000, 75_000, 100_000]);
	const timer = setInterval(() => {
		const ended = run.tally.jobs.completed + run.tally.jobs.failed;
		for (const mark of marks) {
			if (ended >= mark) {
				marks.delete(mark);
				samples.push({ended: mark, rss: process.memoryUsage().rss, heap: process.memoryUsage().heapUsed});
			}
		}
	}, 200);
	const started = performance.now();
	const summary = await run.run(api);
	clearInterval(timer);
	samples.push({ended: summary.jobs.completed + summary.jobs.failed, rss: process.memoryUsage().rss, heap: process.memoryUsage().heapUsed});
	scheduler.stop();
	await pools.close();
	sim.close();
	console.log(
		`\n${count.toLocaleString('en')} jobs at ${rate}/s (limits raised ×100 on both sides): ${summary.jobs.completed.toLocaleString('en')} completed in ${((performance.now() - started) / 1000).toFixed(0)} s, ${summary.requests.status.toLocaleString('en')} status reads`,
	);
	console.log(
		`  stopped: ${summary.stopped}${summary.stopReason ? ` (${summary.stopReason})` : ''}; not sent ${summary.jobs.submitErrors}; ended per second ${summary.throughput.endedPerSecond.toFixed(0)}`,
	);
	console.log(`  RSS of the podtop process as the jobs ended (no list of jobs: histograms):`);
	for (const {ended, rss, heap} of samples) {
		console.log(`    ${ended.toLocaleString('en').padStart(7)} ended: RSS ${mb(rss)}, JS heap ${mb(heap)}`);
	}
}

const seconds = Number(process.env.BENCH_LOAD_SECONDS ?? 20);
const count = Number(process.env.BENCH_LOAD_JOBS ?? 100_000);
await atTheLimit(seconds);
await hundredThousand(count, Number(process.env.BENCH_LOAD_RATE ?? 1000));
