import {spawn, type ChildProcess} from 'node:child_process';
import {afterAll, beforeAll, describe, expect, test} from 'vitest';
import {ApiError} from '../../source/api/errors.js';
import {kindFields} from '../../source/history/fields.js';
import type {HistoryReader, Series} from '../../source/history/history-types.js';
import {vectorOf} from '../../source/history/prometheus-answers.js';
import {figuresOffsetMs, stateQuery} from '../../source/history/prometheus-queries.js';
import {createPrometheusReader} from '../../source/history/prometheus-reader.js';
import {pastAccount} from '../../source/history/prometheus-state.js';
import {UsageError} from '../../source/lib/usage-error.js';
import {cliEnv, cliPath, runCli} from '../helpers/run-cli.js';
import {hasPrometheus, startPrometheus, type RunningPrometheus} from '../helpers/prometheus.js';
import {startTestSim, waitFor, type TestSim} from '../helpers/sim-client.js';

const key = 'rpa_PROMREADERSECRET000011112222333';
const password = 'hunter2-prometheus-password';
/** How long Prometheus scrapes the exporter before the history is read (the exporter is stopped then, so every read sees the same data). */
const scrapeForMs = 30_000;

type Listed = {
	endpoints: Array<{id: string; name: string}>;
	pods: Array<{id: string; name: string; desiredStatus: string; costPerHr: number; gpuCount: number}>;
	gpuTypes: Array<{id: string; displayName: string}>;
};

/** Every value one series of the exporter took, in the order it served them (from fetching /metrics every 200 ms). */
const servedValues = (texts: readonly string[], metric: string, labels: string): number[] => {
	const pattern = new RegExp(String.raw`^${metric}{${labels.replaceAll(/[.*+?^${}()|[\]\\]/g, String.raw`\$&`)}[^}]*} (\S+)$`, 'm');
	return texts.flatMap(text => {
		const found = pattern.exec(text)?.[1];
		return found === undefined ? [] : [Number(found)];
	});
};

/** Consecutive repeats folded: the changes a series went through. */
const changes = (values: readonly number[]) => values.filter((value, index) => index === 0 || value !== values[index - 1]);

/** Whether `part` happens in `whole` in order (not necessarily next to each other). */
const inOrder = (part: readonly number[], whole: readonly number[]) => {
	let at = 0;
	for (const value of part) {
		at = whole.indexOf(value, at);
		if (at === -1) {
			return false;
		}
	}

	return true;
};

const column = (series: Series, field: string) => series.points.map(point => point.last[series.fields.indexOf(field)]);

describe.skipIf(!hasPrometheus)(
	'history read from a real Prometheus scraping podtop export over the simulator (skipped without `prometheus`: .ci/run installs it)',
	() => {
		let sim: TestSim;
		let exporter: ChildProcess;
		let prometheus: RunningPrometheus;
		let reader: HistoryReader;
		/** The Prometheus URL with a user and password in it (this Prometheus asks for none; the password must still never show). */
		let sourceUrl: string;
		let listed: Listed;
		/** What the exporter served, fetched every 200 ms. */
		const served: Array<{readonly at: number; readonly text: string}> = [];
		const texts = () => served.map(each => each.text);
		/**
		The span the test watched what the exporter served: from a scrape interval (and a half) after its first fetch, so the
		value a step looks back to was scraped after that fetch, to its last fetch. Prometheus may scrape a value before the
		test's first fetch or after its last, which the test never saw.
		*/
		const watched = () => ({from: served[0]!.at + 1500, to: served.at(-1)!.at});
		let startedAt: number;
		let stoppedAt: number;
		/** How many samples of one series Prometheus itself holds in a span: asked of its API directly, not through podtop. */
		const scrapedIn = async (metric: string, labels: string, {from, to}: {from: number; to: number}): Promise<number> => {
			const query = `${metric}{${labels}}[${Math.ceil((to - from) / 1000) + 5}s]`;
			const answer = (await (await fetch(`${prometheus.url}/api/v1/query?query=${encodeURIComponent(query)}&time=${to / 1000}`)).json()) as {
				data: {result: Array<{values: Array<[number, string]>}>};
			};
			return (answer.data.result[0]?.values ?? []).filter(([at]) => at * 1000 >= from && at * 1000 <= to).length;
		};

		beforeAll(async () => {
			sim = await startTestSim({apiKey: key, load: true, speed: 5});
			exporter = spawn(
				process.execPath,
				[cliPath, 'export', '--listen', '127.0.0.1:0', '--no-agent', '--api-url', `${sim.url}/v2`, '--graphql-url', `${sim.url}/graphql`],
				{env: cliEnv({RUNPOD_API_KEY: key})},
			);
			let log = '';
			exporter.stderr!.setEncoding('utf8');
			exporter.stderr!.on('data', (text: string) => {
				log += text;
			});
			const metricsUrl = await waitFor(() => /serving (http:\S+)/.exec(log)?.[1], 15_000);
			prometheus = await startPrometheus([new URL(metricsUrl).host]);
			const url = new URL(prometheus.url);
			url.username = 'team';
			url.password = password;
			sourceUrl = url.toString();
			reader = createPrometheusReader({url: sourceUrl});

			startedAt = Date.now();
			while (Date.now() - startedAt < scrapeForMs) {
				served.push({at: Date.now(), text: await (await fetch(metricsUrl)).text()});
				await new Promise(resolve => setTimeout(resolve, 200));
			}

			const {data} = (
				await sim.call('POST', '/graphql', {
					body: {query: '{ myself { endpoints { id name } pods { id name desiredStatus costPerHr gpuCount } } gpuTypes { id displayName } }'},
				})
			).body as {data: {myself: Omit<Listed, 'gpuTypes'>; gpuTypes: Listed['gpuTypes']}};
			listed = {...data.myself, gpuTypes: data.gpuTypes};
			// Stopped: Prometheus marks its series stale at the next scrape, and what it holds no longer changes.
			exporter.kill('SIGTERM');
			await new Promise(resolve => exporter.once('close', resolve));
			stoppedAt = Date.now();
			await new Promise(resolve => setTimeout(resolve, 2500));
		}, scrapeForMs + 90_000);

		afterAll(async () => {
			await reader?.close();
			await prometheus?.close();
			await sim?.close();
		});

		test("an endpoint's queue, by id or by name: every scrape, each value one the exporter served, in its order", async () => {
			const busiest = listed.endpoints
				.map(endpoint => ({endpoint, values: changes(servedValues(texts(), 'podtop_endpoint_jobs_in_queue', `endpoint_id="${endpoint.id}"`))}))
				.sort((a, b) => b.values.length - a.values.length)[0]!;
			const [byId] = await reader.series({kind: 'endpoint', keys: [busiest.endpoint.id], ...watched()});
			expect(byId).toMatchObject({kind: 'endpoint', key: busiest.endpoint.id, name: busiest.endpoint.name, tier: 'raw', step: 0});
			expect(byId!.fields).toEqual(kindFields.endpoint);
			// Every scrape Prometheus holds in the span (one a second for 30 s; a loaded machine misses some), not a thinned step.
			const scrapes = await scrapedIn('podtop_endpoint_jobs_in_queue', `endpoint_id="${busiest.endpoint.id}"`, watched());
			expect(scrapes).toBeGreaterThanOrEqual(10);
			expect(byId!.points.length).toBe(scrapes);
			const queue = column(byId!, 'inQueue') as number[];
			expect(new Set(queue).size).toBeGreaterThan(1);
			expect(inOrder(changes(queue), busiest.values)).toBe(true);
			const completed = column(byId!, 'completed') as number[];
			expect(inOrder(changes(completed), changes(servedValues(texts(), 'podtop_endpoint_jobs_completed_total', `endpoint_id="${busiest.endpoint.id}"`)))).toBe(
				true,
			);
			const running = column(byId!, 'running');
			expect(
				inOrder(
					changes(running as number[]),
					changes(servedValues(texts(), 'podtop_endpoint_workers', `endpoint_id="${busiest.endpoint.id}",endpoint="${busiest.endpoint.name}",state="running"`)),
				),
			).toBe(true);

			const [byName] = await reader.series({kind: 'endpoint', keys: [busiest.endpoint.name], ...watched()});
			expect(byName).toEqual(byId);
			expect(await reader.series({kind: 'endpoint', keys: ['no-such-endpoint'], from: startedAt, to: stoppedAt})).toEqual([]);
		});

		test("a pod's GPU use, status, price and GPU count as the exporter served them", async () => {
			const pod = listed.pods.find(
				each =>
					each.desiredStatus === 'RUNNING' &&
					each.gpuCount > 0 &&
					servedValues(texts(), 'podtop_pod_gpu_utilization_percent', `pod_id="${each.id}"`).length > 0,
			)!;
			const [series] = await reader.series({kind: 'pod', keys: [pod.id], ...watched()});
			expect(series).toMatchObject({key: pod.id, name: pod.name, tier: 'raw'});
			expect(series!.fields.slice(0, 7)).toEqual([...kindFields.pod, 'gpu0.util', 'gpu0.memory']);
			expect(series!.fields).toHaveLength(kindFields.pod.length + 2 * pod.gpuCount);
			const util = column(series!, 'gpu0.util') as number[];
			const scrapes = await scrapedIn('podtop_pod_gpu_utilization_percent', `pod_id="${pod.id}",gpu_index="0"`, watched());
			expect(scrapes).toBeGreaterThanOrEqual(10);
			expect(util.length).toBe(scrapes);
			expect(inOrder(changes(util), changes(servedValues(texts(), 'podtop_pod_gpu_utilization_percent', `pod_id="${pod.id}",pod="${pod.name}"`)))).toBe(true);
			expect(new Set(series!.points.map(point => point.state))).toEqual(new Set(['RUNNING']));
			expect(new Set(column(series!, 'costPerHr'))).toEqual(new Set([pod.costPerHr]));
			expect(new Set(column(series!, 'gpuCount'))).toEqual(new Set([pod.gpuCount]));
			expect(new Set(column(series!, 'up'))).toEqual(new Set([1]));
		});

		test('a step of a minute summarises exactly the scrapes it holds (min, mean, max, last, count)', async () => {
			const endpoint = listed.endpoints[0]!;
			const [raw] = await reader.series({kind: 'endpoint', keys: [endpoint.id], from: startedAt - 65_000, to: stoppedAt});
			const [stepped] = await reader.series({kind: 'endpoint', keys: [endpoint.id], from: startedAt - 5000, to: stoppedAt, step: 60_000});
			expect(stepped).toMatchObject({tier: 'minute', step: 60_000});
			expect(stepped!.points.length).toBeGreaterThan(0);
			for (const point of stepped!.points) {
				expect(point.at % 60_000).toBe(0);
				const inside = raw!.points.filter(each => each.at > point.at && each.at <= point.at + 60_000);
				expect(point.count).toBe(inside.length);
				for (const [index, field] of stepped!.fields.entries()) {
					const values = inside.map(each => each.last[index]!).filter(value => value !== null);
					expect(point.min[index], `min ${field}`).toBe(Math.min(...values));
					expect(point.max[index], `max ${field}`).toBe(Math.max(...values));
					expect(point.last[index], `last ${field}`).toBe(values.at(-1));
					expect(point.mean[index], `mean ${field}`).toBeCloseTo(values.reduce((sum, value) => sum + value, 0) / values.length, 9);
				}
			}
		});

		test('the account as it was 10 s before the end: every endpoint, pod and GPU type with its name; nothing once the exporter stopped', async () => {
			const past = (await reader.stateAt(stoppedAt - 10_000))!;
			expect(past).toMatchObject({at: stoppedAt - 10_000, tier: 'raw', alerts: []});
			expect(Object.fromEntries(past.endpoints.order.map(id => [id, past.endpoints.byId[id]!.record.name]))).toEqual(
				Object.fromEntries(listed.endpoints.map(({id, name}) => [id, name])),
			);
			expect(Object.fromEntries(past.pods.order.map(id => [id, past.pods.byId[id]!.record.name]))).toEqual(
				Object.fromEntries(listed.pods.map(({id, name}) => [id, name])),
			);
			expect(Object.fromEntries(past.gpus.order.map(id => [id, past.gpus.byId[id]!.record.displayName]))).toEqual(
				Object.fromEntries(listed.gpuTypes.map(({id, displayName}) => [id, displayName])),
			);
			// What the exporter served about when Prometheus scraped it for that moment.
			const scrapedAt = past.connection.graphql.lastSuccessAt!;
			expect(scrapedAt).toBeLessThanOrEqual(stoppedAt - 10_000);
			expect(scrapedAt).toBeGreaterThan(stoppedAt - 12_000);
			const then = served.filter(({at}) => Math.abs(at - scrapedAt) < 1200).map(({text}) => text);
			for (const pod of listed.pods) {
				const {record} = past.pods.byId[pod.id]!;
				const statuses = then.map(text => new RegExp(String.raw`^podtop_pod_info{pod_id="${pod.id}",[^}]*status="(\w+)"`, 'm').exec(text)?.[1]);
				expect(statuses).toContain(record.desiredStatus);
				expect(record.gpuCount).toBe(pod.gpuCount);
				// A running pod costs what GraphQL says. A stopped one (a spot pod preempted during the run, say): GraphQL keeps the price it last ran at
				// (its bid), while v2 says 0 and podtop shows the type's list price, what resuming costs (api/rest/pod-record.ts).
				if (record.desiredStatus === 'RUNNING') {
					expect(record.costPerHr).toBe(pod.costPerHr);
				} else {
					expect((record.costPerHr ?? 1) > 0, String(record.costPerHr)).toBe(true);
				}

				if (record.runtime) {
					expect(record.runtime.gpus).toHaveLength(pod.gpuCount);
				}
			}

			for (const {id} of listed.endpoints) {
				const endpoint = past.endpoints.byId[id]!;
				expect(servedValues(texts(), 'podtop_endpoint_jobs_in_queue', `endpoint_id="${id}"`)).toContain(endpoint.health!.jobs.inQueue);
				expect(endpoint.healthAt).toBeLessThanOrEqual(stoppedAt - 10_000);
				expect(endpoint.healthAt).toBeGreaterThan(stoppedAt - 12_000);
			}

			// The figures compare with the counters 4 min before; this run is 30 s long, so ask Prometheus for them 18 s before instead (figures need 15 s).
			const figuresAt = stoppedAt - 3000;
			const query = stateQuery().replaceAll(`offset ${figuresOffsetMs}ms`, 'offset 18000ms');
			const answer = (await (
				await fetch(`${prometheus.url}/api/v1/query`, {method: 'POST', body: new URLSearchParams({query, time: String(figuresAt / 1000)})})
			).json()) as {data: unknown};
			const withFigures = pastAccount(vectorOf(answer.data, 'test'), figuresAt)!;
			for (const {id} of listed.endpoints) {
				const {history, figures, healthAt} = withFigures.endpoints.byId[id]!;
				expect(history).toHaveLength(2);
				expect(history[0]!.at).toBeGreaterThan(figuresAt - 20_000);
				expect(history[0]!.at).toBeLessThanOrEqual(figuresAt - 18_000);
				expect(history[1]!.at).toBe(healthAt);
				expect(figures.throughputPerMinute).toBeGreaterThanOrEqual(0);
			}

			expect(await reader.stateAt(startedAt - 10 * 60_000)).toBeUndefined();
			// Prometheus marked the exporter's series stale at the scrape after it stopped.
			expect(await reader.stateAt(stoppedAt + 2000)).toBeUndefined();
		});

		test("the account's series: pods, running pods and their $/h as the simulator lists them", async () => {
			const [account] = await reader.series({kind: 'account', keys: ['account'], from: stoppedAt - 20_000, to: stoppedAt - 5000});
			const {last} = account!.points.at(-1)!;
			const running = listed.pods.filter(pod => pod.desiredStatus === 'RUNNING');
			expect(last.slice(1, 4)).toEqual([running.length, listed.pods.length, listed.endpoints.length]);
			expect(last[0]).toBeCloseTo(
				running.reduce((sum, pod) => sum + pod.costPerHr, 0),
				6,
			);
			expect(last[4]).toBeNull();

			// By the minute: subqueries through each step; the pods never changed, so every figure of the count is the count.
			const [minutes] = await reader.series({kind: 'account', keys: ['account'], from: startedAt, to: stoppedAt - 5000, step: 60_000});
			expect(minutes).toMatchObject({tier: 'minute', step: 60_000});
			const pods = listed.pods.length;
			for (const point of minutes!.points) {
				expect([point.min[2], point.mean[2], point.max[2], point.last[2]]).toEqual([pods, pods, pods, pods]);
				expect(point.count).toBeGreaterThan(0);
				expect(point.mean[0]).toBeGreaterThanOrEqual(point.min[0]! - 1e-9);
				expect(point.mean[0]).toBeLessThanOrEqual(point.max[0]! + 1e-9);
			}
		});

		test('things, span and info say what Prometheus holds; the URL is shown without its credentials; events need the local store', async () => {
			const things = await reader.things();
			for (const {id, name} of listed.endpoints) {
				expect(things).toContainEqual(expect.objectContaining({kind: 'endpoint', key: id, name}));
			}

			expect(things.filter(thing => thing.kind === 'pod')).toHaveLength(listed.pods.length);
			expect(things.filter(thing => thing.kind === 'gpu')).toHaveLength(listed.gpuTypes.length);
			const span = (await reader.span())!;
			const [raw] = await reader.series({kind: 'endpoint', keys: [listed.endpoints[0]!.id], from: startedAt - 60_000, to: stoppedAt + 5000});
			expect(span.from).toBeLessThanOrEqual(raw!.points[0]!.at);
			expect(span.from).toBeGreaterThan(startedAt - 15_000);
			expect(span.to).toBe(raw!.points.at(-1)!.at);

			const info = await reader.info();
			expect(info).toMatchObject({source: prometheus.url, kind: 'prometheus', bytes: undefined, events: undefined});
			expect(info.tiers).toEqual([{tier: 'raw', retentionMs: 15 * 86_400_000, from: span.from, to: span.to}]);
			// As the SQLite reader counts them: the things (and the account) it holds series of.
			expect(info.series).toBe(listed.endpoints.length + listed.pods.length + listed.gpuTypes.length + 1);
			expect(JSON.stringify(info)).not.toContain(password);

			const error = await reader.events(startedAt, stoppedAt).catch((error_: unknown) => error_);
			expect(error).toBeInstanceOf(UsageError);
			expect((error as Error).message).toMatch(/events need the local store/);
		});

		test('podtop history, snapshot --at and events read it with --history-source; the password never shows', async () => {
			const source = `prometheus=${sourceUrl}`;
			const run = async (args: string[]) => {
				const result = await runCli(
					[...args, '--history-source', source, '--api-url', `${sim.url}/v2`, '--graphql-url', `${sim.url}/graphql`],
					cliEnv({RUNPOD_API_KEY: key}),
					30_000,
				);
				expect(`${result.stdout}${result.stderr}`).not.toContain(password);
				return result;
			};

			const iso = (at: number) => new Date(at).toISOString();
			const endpoint = listed.endpoints[0]!;
			const history = await run(['history', endpoint.name, '--kind', 'endpoint', '--from', iso(startedAt - 5000), '--to', iso(stoppedAt), '--json']);
			expect(history.code, history.stderr).toBe(0);
			const document = JSON.parse(history.stdout) as {key: string; name: string; tier: string; fields: string[]; points: Array<{inQueue: {last: number}}>};
			const [series] = await reader.series({kind: 'endpoint', keys: [endpoint.id], from: startedAt - 5000, to: stoppedAt});
			expect(document).toMatchObject({key: endpoint.id, name: endpoint.name, tier: 'raw', fields: series!.fields});
			expect(document.points.map(point => point.inQueue.last)).toEqual(column(series!, 'inQueue'));

			const snapshot = await run(['snapshot', '--at', iso(stoppedAt - 10_000), '--json']);
			expect(snapshot.code, snapshot.stderr).toBe(0);
			const past = JSON.parse(snapshot.stdout) as {
				at: string;
				endpoints: Array<{id: string; name: string}>;
				pods: Array<{id: string}>;
				gpuTypes: Array<{id: string}>;
			};
			expect(past.at).toBe(iso(stoppedAt - 10_000));
			expect(past.endpoints.map(({id, name}) => `${id} ${name}`).sort()).toEqual(listed.endpoints.map(({id, name}) => `${id} ${name}`).sort());
			expect(past.pods.map(({id}) => id).sort()).toEqual(listed.pods.map(({id}) => id).sort());
			expect(past.gpuTypes.map(({id}) => id).sort()).toEqual(listed.gpuTypes.map(({id}) => id).sort());

			const events = await run(['events', '--since', '1h']);
			expect(events.code).toBe(2);
			expect(events.stderr).toContain('events need the local store');

			const info = await run(['history', '--info', '--json']);
			expect(info.code, info.stderr).toBe(0);
			expect(JSON.parse(info.stdout)).toMatchObject({source: prometheus.url, kind: 'prometheus', tiers: [{tier: 'raw', retention: '15d'}]});
		}, 120_000);

		test('a Prometheus that is not there is a network error that names the host, never the password', async () => {
			const gone = createPrometheusReader({url: `http://team:${password}@127.0.0.1:9/`, timeoutMs: 3000});
			const error = await gone.stateAt(Date.now()).catch((error_: unknown) => error_);
			await gone.close();
			expect(error).toBeInstanceOf(ApiError);
			expect((error as ApiError).kind).toBe('network');
			expect((error as Error).message).toContain('127.0.0.1:9');
			expect((error as Error).message).not.toContain(password);
		});
	},
);
