import {afterAll, afterEach, beforeAll, describe, expect, test} from 'vitest';
import {Pools} from '../../../source/api/pools.js';
import {maxLogLineChars} from '../../../source/api/rest/log-event.js';
import {createRestApi, type RestAnswerSeen} from '../../../source/api/rest/rest-api.js';
import {maxEventChars, maxFieldChars, SseBounds} from '../../../source/api/rest/sse-bounds.js';
import type {LogLine, LogQuery, LogTarget} from '../../../source/model/log-line.js';
import {caught} from '../../helpers/caught.js';
import {sseEvent, sseHead, startSseServer, type SseServer} from '../../helpers/sse-server.js';
import {closeRestSims, startRestSim, type RestSim} from '../../sim/rest/rest-client.js';

const apiKey = 'rpa_RESTLOGSTREAM0123456789';
let pools: Pools;
const servers: SseServer[] = [];

beforeAll(() => {
	pools = new Pools();
});

afterEach(async () => {
	await Promise.all(servers.splice(0).map(async server => server.close()));
});

afterAll(async () => {
	await pools.close();
	await closeRestSims();
});

/** The lines a stream gives until it ends (or `until` says enough, which closes it). */
async function read(
	baseUrl: string,
	target: LogTarget,
	query: LogQuery = {},
	until?: (lines: LogLine[]) => boolean,
	onAnswer?: (answer: RestAnswerSeen) => void,
) {
	const api = createRestApi({baseUrl, apiKey, pools, onAnswer});
	const lines: LogLine[] = [];
	const abort = new AbortController();
	await api.streamLogs!(
		target,
		query,
		line => {
			lines.push(line);
			if (until?.(lines)) {
				abort.abort();
			}
		},
		{signal: abort.signal},
	);
	return lines;
}

const pod: LogTarget = {kind: 'pod', podId: 'pod 1/x'};

async function serve(write: Parameters<typeof startSseServer>[0]) {
	const server = await startSseServer(write);
	servers.push(server);
	return server;
}

describe('REST v2 log streams: the wire', () => {
	test('against the simulator: a pod’s boot as log lines, tail and source as the spec’s query, the rate-limit headers seen', async () => {
		const sim: RestSim = await startRestSim({apiKey, speed: 20});
		const running = (await sim.rest('GET', '/v2/pods')).body.pods.find((each: any) => each.status === 'RUNNING');
		const answers: RestAnswerSeen[] = [];
		const lines = await read(
			sim.url,
			{kind: 'pod', podId: running.id},
			{source: 'system', tail: 2},
			seen => seen.length === 2,
			answer => answers.push(answer),
		);
		expect(lines.map(line => [line.source, line.line])).toEqual([
			['system', 'Image pulled'],
			['system', 'Starting container'],
		]);
		expect(lines[0]).toMatchObject({id: expect.stringMatching(/^\S+Z\/\d{12}$/), ts: expect.any(Number)});
		expect(lines[0]!.raw).toBeUndefined();
		expect(answers.map(answer => answer.status)).toEqual([200]);
		expect(answers[0]!.headers.get('RateLimit')).toMatch(/"minute";r=\d+/);
	});

	test('the key goes in the Authorization header only; ids are encoded; since, tail and Last-Event-ID as the spec names them', async () => {
		const server = await serve((_request, response) => {
			response.writeHead(200, sseHead);
			response.end(sseEvent(1, 'one'));
		});
		await read(server.url, pod, {
			tail: 9999,
			since: Date.UTC(2026, 5, 1, 12, 0, 3, 500),
			source: 'container',
			lastEventId: '2026-06-01T12:00:00Z/000000000007',
		});
		const [{url, headers}] = server.requests as [SseServer['requests'][0]];
		expect(url).toBe('/v2/pods/pod%201%2Fx/logs?source=container&tail=5000&since=2026-06-01T12%3A00%3A03Z');
		expect(url).not.toContain(apiKey);
		expect(headers).toMatchObject({authorization: `Bearer ${apiKey}`, 'last-event-id': '2026-06-01T12:00:00Z/000000000007', accept: 'text/event-stream'});
	});

	test('a 1 MB line is cut and marked, never held whole; invalid UTF-8 replaced; NUL and escapes kept for the sanitiser; a data that is not JSON kept raw', async () => {
		const huge = 'x'.repeat(1024 * 1024);
		const server = await serve((_request, response) => {
			response.writeHead(200, sseHead);
			response.write(sseEvent(1, 'before'));
			// The megabyte goes out in pieces, as a real stream carries it.
			const event = sseEvent(2, huge);
			for (let start = 0; start < event.length; start += 100_000) {
				response.write(event.slice(start, start + 100_000));
			}

			response.write(
				Buffer.concat([
					Buffer.from('id: 2026-06-01T12:00:00Z/000000000003\ndata: {"ts":"2026-06-01T12:00:00Z","source":"system","line":"bad '),
					Buffer.from([0xff, 0xfe]),
					Buffer.from(' bytes"}\n\n'),
				]),
			);
			response.write(sseEvent(4, 'nul \u0000 and \u001B[2J\u001B]0;title\u0007 escapes'));
			response.write('id: 2026-06-01T12:00:05Z/000000000005\ndata: plain text, not JSON\n\n');
			response.write('id: 2026-06-01T12:00:06Z/000000000006\ndata: {"line": 42}\n\n');
			response.end(sseEvent(7, 'after'));
		});
		const lines = await read(server.url, pod);
		expect(lines.map(line => line.id.slice(-1))).toEqual(['1', '2', '3', '4', '5', '6', '7']);
		expect(lines[1]).toMatchObject({source: 'container', truncated: true});
		expect(lines[1]!.line).toBe('x'.repeat(maxLogLineChars));
		expect(lines[1]!.raw).toBeUndefined();
		expect(lines[2]!.line).toBe('bad \uFFFD\uFFFD bytes');
		expect(lines[3]!.line).toBe('nul \u0000 and \u001B[2J\u001B]0;title\u0007 escapes');
		expect(lines[4]).toMatchObject({line: 'plain text, not JSON', raw: true, source: 'container', ts: Date.UTC(2026, 5, 1, 12, 0, 5)});
		expect(lines[5]).toMatchObject({line: '{"line": 42}', raw: true});
		expect(lines[6]).toMatchObject({line: 'after'});
		expect(lines[6]!.truncated).toBeUndefined();
	});

	test('the bounds pass at most a field’s worth of a line and an event’s worth of an event, whatever the chunks', () => {
		let cuts = 0;
		const bounds = new SseBounds(() => cuts++);
		let passed = '';
		passed += bounds.take('data: ');
		for (let index = 0; index < 100; index++) {
			passed += bounds.take('y'.repeat(10_000));
		}

		passed += bounds.take('\r\n\r\n');
		expect(passed.length).toBe(maxFieldChars + 4);
		expect(cuts).toBe(1);
		const many = Array.from({length: 100}, () => `data: ${'z'.repeat(10_000)}\n`).join('');
		const event = bounds.take(`${many}\n`);
		expect(event.length).toBeLessThanOrEqual(maxEventChars + 200);
		expect(cuts).toBe(2);
		expect(bounds.take(sseEvent(1, 'next'))).toBe(sseEvent(1, 'next'));
		expect(cuts).toBe(2);
	});

	test('404 is a not-found error; 429 the rate-limited one with its Retry-After, its headers seen; the key in no error', async () => {
		const server = await serve((_request, response, index) => {
			if (index === 0) {
				response.writeHead(404, {'content-type': 'application/problem+json'});
				response.end(JSON.stringify({title: 'Not Found', status: 404, detail: `worker w1 not found (${apiKey})`}));
				return;
			}

			response.writeHead(429, {'retry-after': '7', 'content-length': '0'});
			response.end();
		});
		const worker: LogTarget = {kind: 'worker', endpointId: 'ep1', workerId: 'w1'};
		const answers: number[] = [];
		const gone = await caught(
			read(server.url, worker, {}, undefined, answer => answers.push(answer.status)),
			apiKey,
		);
		expect(gone).toMatchObject({kind: 'not-found', status: 404});
		const limited = await caught(
			read(server.url, worker, {}, undefined, answer => answers.push(answer.status)),
			apiKey,
		);
		expect(limited).toMatchObject({kind: 'rate-limited', retryAfterMs: 7000});
		expect(answers).toEqual([404, 429]);
	});

	test('a 200 that is not an event stream is a malformed answer', async () => {
		const server = await serve((_request, response) => {
			response.writeHead(200, {'content-type': 'text/html'});
			response.end('<html>login</html>');
		});
		expect(await caught(read(server.url, pod), apiKey)).toMatchObject({kind: 'server', message: expect.stringContaining('not what the service sends')});
	});
});
