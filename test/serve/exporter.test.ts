import {execFileSync, spawn, type ChildProcess} from 'node:child_process';
import {mkdtempSync, readFileSync, writeFileSync} from 'node:fs';
import {createServer} from 'node:net';
import {tmpdir} from 'node:os';
import {join} from 'node:path';
import {afterAll, beforeAll, describe, expect, test} from 'vitest';
import {createMetrics} from '../../source/serve/metrics.js';
import {createPodtopStore} from '../../source/store/create-store.js';
import {cliEnv, cliPath, runCli} from '../helpers/run-cli.js';
import {startTestSim, waitFor, type TestSim} from '../helpers/sim-client.js';

/** Debian's `prometheus` (`.ci/run` installs it); without it the scrape test is skipped, and `npm test` says so. */
const hasPrometheus = (() => {
	try {
		execFileSync('prometheus', ['--version'], {stdio: 'ignore'});
		return true;
	} catch {
		return false;
	}
})();

const key = 'rpa_EXPORTERSECRET0000111122223333';

async function freePort(): Promise<number> {
	const server = createServer();
	await new Promise<void>(resolve => server.listen(0, '127.0.0.1', resolve));
	const {port} = server.address() as {port: number};
	await new Promise(resolve => server.close(resolve));
	return port;
}

describe('the metrics, from fixed store states', () => {
	test('each kind of data as the Prometheus text format, with label values inert and stock as a number', async () => {
		const {store, writes} = createPodtopStore({mode: 'live', apiHost: 'x', keyFingerprint: '••••1234'});
		const hostile = 'evil\u001B]0;PWNED\u0007\u001B[2J\u202Ename"\nnext';
		writes.setEndpoints([{id: 'ep1', name: hostile, workersMin: 1, workersMax: 4}], 1000);
		writes.setHealth(
			'ep1',
			{
				jobs: {completed: 120, failed: 3, inProgress: 2, inQueue: 17, retried: 1},
				workers: {idle: 1, initializing: 0, ready: 1, running: 2, throttled: 1, unhealthy: 0},
			},
			2000,
		);
		writes.setPods(
			[
				{
					id: 'pod1',
					name: 'trainer',
					desiredStatus: 'RUNNING',
					costPerHr: 1.89,
					gpuCount: 1,
					imageName: 'runpod/pytorch',
					machine: {gpuDisplayName: 'A100 80GB'},
					runtime: {uptimeInSeconds: 3600, container: {cpuPercent: 40, memoryPercent: 55}, gpus: [{id: 'GPU-a', gpuUtilPercent: 93, memoryUtilPercent: 71}]},
				},
				{id: 'pod2', name: 'parked', desiredStatus: 'EXITED', costPerHr: 3.99, volumeInGb: 73},
				{id: 'pod3', name: 'unknown', desiredStatus: 'EXITED', costPerHr: 2.5},
			],
			2000,
		);
		writes.setGpuTypes(
			[
				{
					id: 'NVIDIA L4',
					displayName: 'L4',
					securePrice: 0.43,
					communitySpotPrice: 0.22,
					threeMonthPrice: 0.35,
					lowestPrice: {stockStatus: 'Low', maxUnreservedGpuCount: 6, uninterruptablePrice: 0.39, minimumBidPrice: 0.19},
				},
			],
			2000,
		);
		writes.reportSource('graphql', Date.now());
		writes.reportSource('jobApi', Date.now(), 'HTTP 503');
		const metrics = createMetrics(store);
		writes.reportSource('jobApi', Date.now() + 1, 'HTTP 503 again');
		const text = await metrics.registry.metrics();
		metrics.close();

		expect(text).toContain('# TYPE podtop_endpoint_jobs_completed_total counter');
		// The name shown inert (the sanitiser's pictures for escape and BEL), its quote escaped by the format.
		expect(text).toMatch(/^podtop_endpoint_jobs_completed_total{endpoint_id="ep1",endpoint="evil␛]0;PWNED\^G␛\[2J.*name\\".next"} 120$/m);
		expect(text).toMatch(/^podtop_endpoint_jobs_in_queue{endpoint_id="ep1",.*} 17$/m);
		expect(text).toMatch(/^podtop_endpoint_workers{endpoint_id="ep1",.*,state="throttled"} 1$/m);
		expect(text).toMatch(/^podtop_endpoint_workers_max{.*} 4$/m);
		expect(text).toMatch(/^podtop_pod_gpu_utilization_percent{pod_id="pod1",pod="trainer",gpu="GPU-a",gpu_index="0"} 93$/m);
		expect(text).toMatch(/^podtop_pod_gpu_memory_utilization_percent{pod_id="pod1",pod="trainer",gpu="GPU-a",gpu_index="0"} 71$/m);
		// What history reads back from a Prometheus: GPUs, up, every price.
		expect(text).toMatch(/^podtop_pod_gpus{pod_id="pod1",pod="trainer"} 1$/m);
		expect(text).toMatch(/^podtop_pod_up{pod_id="pod1",pod="trainer"} 1$/m);
		expect(text).toMatch(/^podtop_pod_up{pod_id="pod2",pod="parked"} 0$/m);
		expect(text).toMatch(/^podtop_gpu_lowest_price_dollars_per_hour{gpu_type_id="NVIDIA L4",gpu_type="L4"} 0.39$/m);
		expect(text).toMatch(/^podtop_gpu_minimum_bid_dollars_per_hour{gpu_type_id="NVIDIA L4",gpu_type="L4"} 0.19$/m);
		expect(text).toMatch(/^podtop_gpu_committed_price_dollars_per_hour{gpu_type_id="NVIDIA L4",gpu_type="L4",term="three_months"} 0.35$/m);
		expect(text).not.toMatch(/^podtop_gpu_committed_price_dollars_per_hour{.*term="six_months"}/m);
		expect(text).toMatch(/^podtop_pod_cost_dollars_per_hour{pod_id="pod1",pod="trainer"} 1.89$/m);
		// What each pod costs now: running, its price; stopped, its volume (73 GB at $0.20/GB/month, 730 h); an unknown volume, no sample.
		expect(text).toMatch(/^podtop_pod_cost_now_dollars_per_hour{pod_id="pod1",pod="trainer"} 1.89$/m);
		expect(text).toMatch(/^podtop_pod_cost_now_dollars_per_hour{pod_id="pod2",pod="parked"} 0.02$/m);
		expect(text).not.toMatch(/^podtop_pod_cost_now_dollars_per_hour{pod_id="pod3"/m);
		// The running price stays for every pod, labelled as such.
		expect(text).toMatch(/^podtop_pod_cost_dollars_per_hour{pod_id="pod2",pod="parked"} 3.99$/m);
		expect(text).toContain("# HELP podtop_pod_cost_dollars_per_hour The pod's price per hour while it runs");
		expect(text).toMatch(/^podtop_pod_info{pod_id="pod1",pod="trainer",status="RUNNING",gpu_type="A100 80GB",image="runpod\/pytorch"} 1$/m);
		expect(text).toMatch(/^podtop_gpu_price_dollars_per_hour{gpu_type_id="NVIDIA L4",gpu_type="L4",cloud="community",kind="spot"} 0.22$/m);
		expect(text).toContain('# HELP podtop_gpu_stock Stock of the GPU type: 0 None, 1 Low, 2 Medium, 3 High, -1 Unknown');
		expect(text).toMatch(/^podtop_gpu_stock{gpu_type_id="NVIDIA L4",gpu_type="L4"} 1$/m);
		expect(text).toMatch(/^podtop_gpu_available_count{.*} 6$/m);
		expect(text).toMatch(/^podtop_poll_errors_total{source="jobApi"} 1$/m);
		expect(text).toMatch(/^podtop_source_stale{source="jobApi"} 1$/m);
		expect(text).toMatch(/^podtop_data_age_seconds{source="graphql"} \d/m);
		// The hostile name: no escape, no bidi control, no line break reaches the output.
		expect(text).not.toMatch(/[\u001B\u0007\u202E]/);
		expect(text).not.toContain('PWNED\u0007');
		for (const line of text.split('\n').filter(line => line.startsWith('podtop_endpoint_jobs_in_queue'))) {
			expect(line).toMatch(/} 17$/);
		}
	});
});

describe('the probes as metrics', () => {
	test('a histogram of delay, execution and total per endpoint, and a count by outcome and cold start; probes from before the exporter are not counted', async () => {
		const {store, writes} = createPodtopStore({mode: 'live', apiHost: 'x', keyFingerprint: '••••1234'});
		writes.setEndpoints([{id: 'ep1', name: 'llama'}], 0);
		writes.addProbes([{endpointId: 'ep1', probe: {at: Date.now() - 3_600_000, jobId: 'old', delayMs: 100, executionMs: 100, cold: false, outcome: 'ok'}}]);
		const metrics = createMetrics(store);
		const at = Date.now();
		writes.addProbes([
			{endpointId: 'ep1', probe: {at, jobId: 'a', delayMs: 300, executionMs: 1500, cold: false, outcome: 'ok'}},
			{endpointId: 'ep1', probe: {at: at + 1, jobId: 'b', delayMs: 12_000, executionMs: 1700, cold: true, outcome: 'ok'}},
			{endpointId: 'ep1', probe: {at: at + 2, jobId: 'c', outcome: 'timeout', error: 'not done in 600 s'}},
		]);
		const text = await metrics.registry.metrics();
		metrics.close();
		expect(text).toContain('# TYPE podtop_probe_seconds histogram');
		expect(text).toMatch(/^podtop_probe_seconds_bucket{le="0.5",endpoint_id="ep1",endpoint="llama",measure="delay"} 1$/m);
		expect(text).toMatch(/^podtop_probe_seconds_bucket{le="20",endpoint_id="ep1",endpoint="llama",measure="delay"} 2$/m);
		expect(text).toMatch(/^podtop_probe_seconds_sum{endpoint_id="ep1",endpoint="llama",measure="execution"} 3.2$/m);
		expect(text).toMatch(/^podtop_probe_seconds_count{endpoint_id="ep1",endpoint="llama",measure="total"} 2$/m);
		expect(text).toMatch(/^podtop_probes_total{endpoint_id="ep1",endpoint="llama",outcome="ok",cold="false"} 1$/m);
		expect(text).toMatch(/^podtop_probes_total{endpoint_id="ep1",endpoint="llama",outcome="ok",cold="true"} 1$/m);
		expect(text).toMatch(/^podtop_probes_total{endpoint_id="ep1",endpoint="llama",outcome="timeout",cold="false"} 1$/m);
	});
});

describe('podtop export on the simulator', () => {
	let sim: TestSim;
	let exporter: ChildProcess;
	let metricsUrl: string;

	beforeAll(async () => {
		// A roomy v2 quota, as the other functional suites have: this file checks what is exported, the budget's own suites its pace.
		sim = await startTestSim({apiKey: key, load: true, speed: 5, restQuota: {minute: 10_000, hour: 100_000, day: 1_000_000}});
		exporter = spawn(
			process.execPath,
			[cliPath, 'export', '--listen', '127.0.0.1:0', '--no-agent', '--api-url', `${sim.url}/v2`, '--graphql-url', `${sim.url}/graphql`],
			{
				env: cliEnv({RUNPOD_API_KEY: key}),
			},
		);
		let log = '';
		exporter.stderr!.setEncoding('utf8');
		exporter.stderr!.on('data', (text: string) => {
			log += text;
		});
		metricsUrl = (await waitFor(() => /serving (http:\S+)/.exec(log)?.[1], 15_000))!;
	}, 30_000);

	afterAll(async () => {
		exporter.kill('SIGTERM');
		await new Promise(resolve => exporter.once('close', resolve));
		await sim.close();
	});

	test('serves /metrics with every endpoint of the account; anything else is 404, and no key anywhere', async () => {
		const endpoints = (await sim.call('POST', '/graphql', {body: {query: '{ myself { endpoints { id } } }'}})).body.data.myself.endpoints as Array<{
			id: string;
		}>;
		const text = await waitFor(async () => {
			const body = await (await fetch(metricsUrl)).text();
			return endpoints.every(({id}) => body.includes(`podtop_endpoint_jobs_in_queue{endpoint_id="${id}"`)) ? body : undefined;
		}, 15_000);
		expect(text).toContain('# TYPE podtop_pod_gpu_utilization_percent gauge');
		expect(text).not.toContain(key);
		expect((await fetch(metricsUrl.replace('/metrics', '/nope'))).status).toBe(404);
		expect((await fetch(metricsUrl, {method: 'POST'})).status).toBe(405);
	}, 30_000);

	test('a pod stopped through the service costs its volume now; its running price stays in podtop_pod_cost_dollars_per_hour', async () => {
		type Pod = {id: string; desiredStatus: string; costPerHr: number; volumeInGb: number; gpuCount: number; podType: string};
		const listed = (await waitFor(
			async () =>
				(await sim.call('POST', '/graphql', {body: {query: '{ myself { pods { id desiredStatus costPerHr volumeInGb gpuCount podType } } }'}})).body.data
					?.myself.pods,
			5000,
		)) as Pod[];
		const target = listed.find(pod => pod.desiredStatus === 'RUNNING' && pod.podType === 'RESERVED' && pod.gpuCount > 0 && pod.volumeInGb > 0)!;
		const stop = async () => (await sim.call('POST', '/graphql', {body: {query: `mutation { podStop(input: {podId: "${target.id}"}) { id } }`}})).body;
		// GraphQL allows 5 requests a second to a key, which the exporter shares: a refused stop is asked again, never assumed.
		expect(await waitFor(async () => ((await stop()) as {data?: unknown}).data, 5000)).toBeDefined();
		const sample = (text: string, metric: string, id: string) => new RegExp(String.raw`^${metric}{pod_id="${id}",[^}]*} (\S+)$`, 'm').exec(text)?.[1];
		// Once the exporter has seen it stopped:
		const now = await waitFor(async () => {
			const body = await (await fetch(metricsUrl)).text();
			return new RegExp(`^podtop_pod_info{pod_id="${target.id}",[^}]*status="EXITED"`, 'm').test(body) ? body : undefined;
		}, 15_000);
		expect(Number(sample(now, 'podtop_pod_cost_now_dollars_per_hour', target.id))).toBeCloseTo((target.volumeInGb * 0.2) / 730, 10);
		expect(Number(sample(now, 'podtop_pod_cost_dollars_per_hour', target.id))).toBe(target.costPerHr);
	}, 30_000);

	test('bad --listen is a usage error (exit 2)', async () => {
		const result = await runCli(
			['export', '--listen', 'nowhere', '--api-url', `${sim.url}/v2`, '--graphql-url', `${sim.url}/graphql`],
			cliEnv({RUNPOD_API_KEY: key}),
		);
		expect(result.code).toBe(2);
		expect(result.stderr).toContain('--listen takes HOST:PORT');
	});

	test.skipIf(!hasPrometheus)(
		'a real Prometheus scrapes it, and the queue of every endpoint comes back through its HTTP API',
		async () => {
			const directory = mkdtempSync(join(tmpdir(), 'podtop-prometheus-'));
			const target = new URL(metricsUrl).host;
			writeFileSync(
				join(directory, 'prometheus.yml'),
				`global:\n  scrape_interval: 1s\nscrape_configs:\n  - job_name: podtop\n    static_configs:\n      - targets: ['${target}']\n`,
			);
			const port = await freePort();
			const prometheus = spawn(
				'prometheus',
				[`--config.file=${join(directory, 'prometheus.yml')}`, `--storage.tsdb.path=${join(directory, 'data')}`, `--web.listen-address=127.0.0.1:${port}`],
				{stdio: 'ignore'},
			);
			try {
				const query = async (promql: string) => {
					const response = await fetch(`http://127.0.0.1:${port}/api/v1/query?query=${encodeURIComponent(promql)}`);
					return ((await response.json()) as {data: {result: Array<{metric: Record<string, string>; value: [number, string]}>}}).data.result;
				};

				const endpoints = (await sim.call('POST', '/graphql', {body: {query: '{ myself { endpoints { id name } } }'}})).body.data.myself.endpoints as Array<{
					id: string;
					name: string;
				}>;
				const series = await waitFor(
					async () => {
						const result = await query('podtop_endpoint_jobs_in_queue').catch(() => []);
						return result.length === endpoints.length ? result : undefined;
					},
					30_000,
					250,
				);
				for (const {id, name} of endpoints) {
					const one = series.find(each => each.metric.endpoint_id === id);
					expect(one?.metric).toMatchObject({job: 'podtop', endpoint: name});
					expect(Number(one!.value[1])).toBeGreaterThanOrEqual(0);
				}

				expect(await query('up{job="podtop"}')).toEqual([expect.objectContaining({value: [expect.any(Number), '1']})]);
				const stock = await query('podtop_gpu_stock');
				expect(stock.length).toBeGreaterThan(0);

				// The shipped Grafana dashboard: every panel's query is valid PromQL and names metrics that exist.
				const dashboard = JSON.parse(readFileSync(new URL('../../media/grafana-dashboard.json', import.meta.url), 'utf8')) as {
					panels: Array<{title: string; targets?: Array<{expr: string}>}>;
				};
				const exported = new Set([...(await (await fetch(metricsUrl)).text()).matchAll(/^# TYPE (\S+)/gm)].map(match => match[1]));
				const expressions = dashboard.panels.flatMap(panel =>
					(panel.targets ?? []).map(target => ({title: panel.title, expr: target.expr.replaceAll(/\$\w+/g, '.*')})),
				);
				expect(expressions.length).toBeGreaterThan(10);
				for (const {title, expr} of expressions) {
					for (const [name] of expr.matchAll(/podtop_\w+/g)) {
						expect(exported, `${title}: ${name}`).toContain(name);
					}

					const response = await fetch(`http://127.0.0.1:${port}/api/v1/query?query=${encodeURIComponent(expr)}`);
					expect(((await response.json()) as {status: string}).status, `${title}: ${expr}`).toBe('success');
				}

				// The spend panel: what the pods cost now, and the part of it that is stopped pods' volumes (the fleet has some).
				const spend = dashboard.panels.find(panel => panel.title.startsWith('Spend'))!.targets!;
				const [total, volumes] = await waitFor(async () => {
					const values = await Promise.all(spend.map(async ({expr}) => Number((await query(expr))[0]?.value[1])));
					return values.every(value => value > 0) ? values : undefined;
				}, 15_000);
				expect(volumes).toBeLessThan(1);
				expect(total).toBeGreaterThan(volumes! + 1);
			} finally {
				prometheus.kill('SIGTERM');
				await new Promise(resolve => prometheus.once('close', resolve));
			}
		},
		60_000,
	);
});
