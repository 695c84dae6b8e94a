import {createServer, type IncomingMessage, type Server, type ServerResponse} from 'node:http';
import {gzipSync} from 'node:zlib';
import {afterEach, describe, expect, test, vi} from 'vitest';
import {type ApiError} from '../../source/api/errors.js';
import {redactSecrets} from '../../source/api/redact.js';
import {exitCodeFor} from '../../source/commands/exit-code.js';
import {answerBounds, createPrometheusClient} from '../../source/history/prometheus-client.js';

type Seen = {method: string; url: string; headers: IncomingMessage['headers']; body: string};

let servers: Server[] = [];
afterEach(async () => {
	await Promise.all(servers.map(async server => new Promise(resolve => server.close(resolve))));
	servers = [];
});

/** A stand-in for a Prometheus: answers each request with `reply`, and keeps what it was sent. */
async function stand(reply: (request: Seen, response: ServerResponse) => void): Promise<{url: string; seen: Seen[]}> {
	const seen: Seen[] = [];
	const server = createServer((request, response) => {
		let body = '';
		request.setEncoding('utf8');
		request.on('data', (chunk: string) => {
			body += chunk;
		});
		request.on('end', () => {
			const one = {method: request.method!, url: request.url!, headers: request.headers, body};
			seen.push(one);
			reply(one, response);
		});
	});
	servers.push(server);
	await new Promise<void>(resolve => server.listen(0, '127.0.0.1', resolve));
	return {url: `http://127.0.0.1:${(server.address() as {port: number}).port}`, seen};
}

const json = (response: ServerResponse, status: number, body: unknown, headers: Record<string, string> = {}) => {
	response.writeHead(status, {'content-type': 'application/json', ...headers});
	response.end(typeof body === 'string' ? body : JSON.stringify(body));
};

const failure = async (promise: Promise<unknown>) =>
	promise.then(
		() => {
			throw new Error('expected a failure');
		},
		(error: unknown) => error as ApiError,
	);

describe('the Prometheus client', () => {
	test('POSTs forms under the path prefix with Basic auth from the URL, shows the URL without credentials, reads gzip answers', async () => {
		const prometheus = await stand((_request, response) => {
			response.writeHead(200, {'content-type': 'application/json', 'content-encoding': 'gzip'});
			response.end(gzipSync(JSON.stringify({status: 'success', data: {resultType: 'vector', result: []}})));
		});
		const url = new URL(`${prometheus.url}/prometheus/`);
		url.username = 'team';
		url.password = 'p@ss word';
		const client = createPrometheusClient({url: url.toString()});
		try {
			expect(client.source).toBe(`${prometheus.url}/prometheus`);
			expect(await client.post('/api/v1/series', {'match[]': ['a{x="1"}', 'b'], start: '1'})).toEqual({resultType: 'vector', result: []});
		} finally {
			await client.close();
		}

		const [request] = prometheus.seen;
		expect(request).toMatchObject({method: 'POST', url: '/prometheus/api/v1/series'});
		expect(request!.headers.authorization).toBe(`Basic ${Buffer.from('team:p@ss word').toString('base64')}`);
		expect(request!.headers['content-type']).toBe('application/x-www-form-urlencoded');
		expect(new URLSearchParams(request!.body).getAll('match[]')).toEqual(['a{x="1"}', 'b']);
		// A crash report printed later cannot carry the password.
		expect(redactSecrets('connecting with p@ss word failed')).not.toContain('p@ss word');
	});

	test('refusals become the ApiError kinds the exit table knows, in safe words', async () => {
		const prometheus = await stand((request, response) => {
			const status = Number(new URL(request.url, 'http://x').searchParams.get('status') ?? request.url.split('/').pop());
			switch (status) {
				case 400: {
					json(response, 400, {status: 'error', errorType: 'bad_data', error: 'parse error: unexpected \u001B[31m"}"\u001B[0m'});

					break;
				}

				case 503: {
					json(response, 503, {status: 'error', errorType: 'timeout', error: 'query timed out in expression evaluation'});

					break;
				}

				case 200: {
					json(response, 200, {status: 'error', error: 'odd'});

					break;
				}

				default: {
					json(response, status, 'not json');
				}
			}
		});
		const client = createPrometheusClient({url: `http://viewer:s3cret-pass@${new URL(prometheus.url).host}`});
		try {
			const bad = await failure(client.get('/400'));
			expect(bad).toMatchObject({kind: 'invalid', status: 400});
			expect(bad.message).toMatch(/^Prometheus at 127\.0\.0\.1:\d+: parse error: unexpected ␛\[31m"}"␛\[0m$/);
			expect(exitCodeFor(bad)).toBe(1);
			expect(await failure(client.get('/503'))).toMatchObject({kind: 'timeout'});
			expect(exitCodeFor(await failure(client.get('/503')))).toBe(5);
			const auth = await failure(client.get('/401'));
			expect(auth).toMatchObject({kind: 'auth'});
			expect(exitCodeFor(auth)).toBe(3);
			expect(auth.message).toContain('check the user and password');
			const missing = await failure(client.get('/404'));
			expect(missing).toMatchObject({kind: 'invalid'});
			expect(missing.message).toContain('no Prometheus API at http://127.0.0.1');
			expect(missing.message).toContain('/prometheus');
			expect(await failure(client.get('/500'))).toMatchObject({kind: 'server', message: expect.stringContaining('HTTP 500')});
			expect(await failure(client.get('/200'))).toMatchObject({kind: 'server', message: expect.stringContaining('odd')});
			for (const error of [bad, auth, missing]) {
				expect(error.message).not.toContain('s3cret-pass');
				expect(error.message).not.toMatch(/\u001B/);
			}
		} finally {
			await client.close();
		}
	});

	test('answers are bounded in size and time', async () => {
		const big = {
			status: 'success',
			data: {resultType: 'vector', result: Array.from({length: 15_000}, (_, index) => ({metric: {pod_id: `pod-${index}-${'x'.repeat(40)}`}, value: [1, '1']}))},
		};
		const prometheus = await stand((request, response) => {
			if (request.url.endsWith('/slow')) {
				return; // Never answers.
			}

			json(response, 200, big);
		});
		// The size is refused whatever the time it takes to come (a loaded machine serves 2 MB slowly).
		const patient = createPrometheusClient({url: prometheus.url, maxBytes: 1024 * 1024, timeoutMs: 30_000});
		const client = createPrometheusClient({url: prometheus.url, maxBytes: 1024 * 1024, timeoutMs: 800});
		try {
			const large = await failure(patient.get('/api/v1/query'));
			expect(large).toMatchObject({kind: 'invalid'});
			expect(large.message).toContain('over 1 MB; ask for a shorter range or a larger step');
			// The silence is cut off by the client's own deadline, armed at 0.8 s: asked together, the 0.8 s client gives up while the 30 s one still waits.
			let patientSettled = false;
			const waiting = patient.get('/slow').finally(() => {
				patientSettled = true;
			});
			const timers = vi.spyOn(globalThis, 'setTimeout');
			const silent = client.get('/slow');
			expect(timers.mock.calls.some(([, delay]) => delay === 800)).toBe(true);
			timers.mockRestore();
			expect(await failure(silent)).toMatchObject({kind: 'timeout'});
			expect(patientSettled).toBe(false);
			void waiting.catch(() => undefined);
		} finally {
			await patient.close();
			await client.close();
		}
	});

	test('answers past what podtop asks for are refused as they stream in, each with a sentence: depth, series, points in one and in all', async () => {
		const series = (count: number, points: number) => ({
			status: 'success',
			data: {
				resultType: 'matrix',
				result: Array.from({length: count}, (_, index) => ({metric: {pod_id: `p${index}`}, values: Array.from({length: points}, (_, at) => [at, '1'])})),
			},
		});
		const answers: Record<string, string> = {
			deep: `{"status":"success","data":{"resultType":"matrix","result":[{"metric":{},"values":[[[[[1]]]]]}]}}`,
			many: JSON.stringify(series(answerBounds.elements + 1, 0)),
			long: JSON.stringify(series(1, 11_001)),
			all: JSON.stringify(series(51, 10_000)),
			flat: `{"status":"success","data":{"resultType":"scalar","result":[1,${'1,'.repeat(600_000)}1]}}`,
			fine: JSON.stringify(series(50, 10_000)),
		};
		const prometheus = await stand((request, response) => {
			response.writeHead(200, {'content-type': 'application/json'});
			response.end(answers[request.url.split('/').pop()!]);
		});
		const client = createPrometheusClient({url: prometheus.url});
		try {
			const refused = async (name: string) => ((await failure(client.get(`/api/v1/${name}`))) as Error).message;
			expect(await refused('deep')).toMatch(
				/^Prometheus at 127\.0\.0\.1:\d+: the answer nests deeper than 8, more than podtop asks for; ask for a shorter range/,
			);
			expect(await refused('many')).toMatch(/the answer holds over 20{4} elements in its list/);
			expect(await refused('long')).toMatch(/the answer holds over 11002 arrays and objects in one element of its list/);
			expect(await refused('all')).toMatch(/the answer holds over 510000 arrays and objects in its list/);
			expect(await refused('flat')).toMatch(/the answer holds over 1048576 characters beside its list/);
			// At the bounds: 50 series of 10,000 points, read whole.
			const fine = (await client.get('/api/v1/fine')) as {result: Array<{values: unknown[]}>};
			expect(fine.result).toHaveLength(50);
			expect(fine.result.every(each => each.values.length === 10_000)).toBe(true);
		} finally {
			await client.close();
		}
	});
});
