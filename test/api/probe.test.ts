import {createServer, type Server} from 'node:http';
import type {AddressInfo} from 'node:net';
import {afterAll, beforeAll, expect, test} from 'vitest';
import {maxProbeBytes, probe} from '../../source/api/probe.js';

let server: Server;
let url: string;
let sent = 0;

beforeAll(async () => {
	// An answer that never ends: one chunk of a JSON array after another, until the client lets go.
	server = createServer((request, response) => {
		if (request.url === '/small') {
			response.end('{"ok":true}');
			return;
		}

		response.write('[');
		const chunk = Buffer.from('"'.concat('x'.repeat(64 * 1024 - 4), '",'));
		const more = (): void => {
			let flowing = true;
			while (!response.destroyed && flowing) {
				sent += chunk.byteLength;
				flowing = response.write(chunk);
			}
		};

		response.on('drain', more);
		more();
	});
	await new Promise<void>(resolve => {
		server.listen(0, '127.0.0.1', resolve);
	});
	url = `http://127.0.0.1:${(server.address() as AddressInfo).port}`;
});

afterAll(async () => {
	server.closeAllConnections();
	await new Promise(resolve => {
		server.close(resolve);
	});
});

test('doctor’s probe reads a small answer whole, and lets go of an endless one past its bound (not JSON)', async () => {
	expect((await probe({url: `${url}/small`, apiKey: 'k', method: 'GET', timeoutMs: 10_000, label: 'small'})).body).toEqual({ok: true});
	const endless = await probe({url: `${url}/endless`, apiKey: 'k', method: 'GET', timeoutMs: 60_000, label: 'endless'});
	expect(endless.status).toBe(200);
	expect(endless.body).toBeUndefined();
	expect(sent).toBeGreaterThan(maxProbeBytes);
	expect(sent).toBeLessThan(maxProbeBytes * 2);
});
