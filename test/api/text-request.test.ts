import {createServer, type Server} from 'node:http';
import type {AddressInfo} from 'node:net';
import {Pool} from 'undici';
import {afterAll, beforeAll, expect, test} from 'vitest';
import {requestText} from '../../source/api/text-request.js';

let server: Server;
let pool: Pool;

beforeAll(async () => {
	server = createServer((request, response) => {
		const url = new URL(request.url!, 'http://x');
		if (url.pathname === '/slow') {
			setTimeout(() => response.end('late'), 2000).unref();
			return;
		}

		if (url.pathname === '/chunks') {
			// A body in pieces, a character cut between two of them, after a byte-order mark.
			const bytes = Buffer.from('\uFEFF{"name":"über"}');
			response.writeHead(200, {'content-type': 'application/json', 'retry-after': '7'});
			response.write(bytes.subarray(0, 13));
			setTimeout(() => response.end(bytes.subarray(13)), 20);
			return;
		}

		let body = '';
		request.setEncoding('utf8');
		request.on('data', (chunk: string) => {
			body += chunk;
		});
		request.on('end', () => {
			response.writeHead(url.pathname === '/missing' ? 404 : 200, {'x-echo': request.headers['x-test'] ?? ''});
			response.end(JSON.stringify({method: request.method, path: url.pathname + url.search, body}));
		});
	});
	await new Promise<void>(resolve => {
		server.listen(0, '127.0.0.1', resolve);
	});
	pool = new Pool(`http://127.0.0.1:${(server.address() as AddressInfo).port}`, {headersTimeout: 5000, bodyTimeout: 5000});
});

afterAll(async () => {
	await pool.close();
	server.closeAllConnections();
	server.close();
});

test('a request sent whole, its answer read whole: status, headers, text', async () => {
	const answer = await requestText({pool, path: '/echo?a=1', method: 'POST', headers: {'x-test': 'yes'}, body: '{"input":1}'});
	expect(answer.statusCode).toBe(200);
	expect(answer.headers['x-echo']).toBe('yes');
	expect(JSON.parse(answer.text)).toEqual({method: 'POST', path: '/echo?a=1', body: '{"input":1}'});
	const missing = await requestText({pool, path: '/missing', method: 'GET', headers: {}});
	expect(missing.statusCode).toBe(404);
});

test('a body in pieces is decoded as body.text() decodes it: UTF-8 across the pieces, the byte-order mark dropped', async () => {
	const answer = await requestText({pool, path: '/chunks', method: 'GET', headers: {}});
	expect(answer.text).toBe('{"name":"über"}');
	expect(answer.headers['retry-after']).toBe('7');
});

test('a signal aborts it, before it is sent or while it waits, with the signal’s reason', async () => {
	const before = AbortSignal.abort(new Error('stopped before'));
	await expect(requestText({pool, path: '/echo', method: 'GET', headers: {}, signal: before})).rejects.toThrow('stopped before');
	const controller = new AbortController();
	const waiting = requestText({pool, path: '/slow', method: 'GET', headers: {}, signal: controller.signal});
	setTimeout(() => {
		controller.abort();
	}, 50);
	await expect(waiting).rejects.toMatchObject({name: 'AbortError'});
	// The pool still answers afterwards.
	expect((await requestText({pool, path: '/echo', method: 'GET', headers: {}})).statusCode).toBe(200);
});

test('undici’s own timeouts reject it', async () => {
	await expect(requestText({pool, path: '/slow', method: 'GET', headers: {}, headersTimeoutMs: 100})).rejects.toMatchObject({code: 'UND_ERR_HEADERS_TIMEOUT'});
});
