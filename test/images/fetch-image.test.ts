import {createServer, type IncomingHttpHeaders, type Server} from 'node:http';
import type {AddressInfo} from 'node:net';
import {request} from 'undici';
import {afterAll, beforeAll, describe, expect, test} from 'vitest';
import {ApiError} from '../../source/api/errors.js';
import {fetchImage} from '../../source/images/fetch-image.js';
import {imageFacts} from '../../source/images/image-facts.js';
import {ImageError} from '../../source/images/image-error.js';
import {startTestSim, type TestSim} from '../helpers/sim-client.js';

let sim: TestSim;
let server: Server;
let base: string;
const seen: IncomingHttpHeaders[] = [];
/** Bytes the oversized routes had written when the client went away. */
const written = {announced: 0, streamed: 0};
const mb = 1024 * 1024;
/** The local server stands for a host on the operator's network: the tests that reach it allow it, as config.toml would. */
const local = {policy: {allow: ['127.0.0.1']}};
/** GETs the hostile-output tests must never cause. */
let hits = 0;
let redirector: Server;
let redirectorBase: string;

async function caught(promise: Promise<unknown>): Promise<unknown> {
	try {
		await promise;
	} catch (error) {
		return error;
	}

	throw new Error('expected a rejection');
}

beforeAll(async () => {
	sim = await startTestSim();
	server = createServer((incoming, response) => {
		seen.push(incoming.headers);
		switch (incoming.url) {
			case '/big-announced': {
				// 21 MB promised up front: refused before the body is read.
				response.writeHead(200, {'content-type': 'image/png', 'content-length': 21 * mb});
				const chunk = Buffer.alloc(mb);
				const push = () => {
					while (written.announced < 21 * mb && !response.destroyed) {
						written.announced += chunk.length;
						if (!response.write(chunk)) {
							response.once('drain', push);
							return;
						}
					}

					response.end();
				};

				push();
				break;
			}

			case '/big-streamed': {
				// No length: chunks until the client stops reading (never more than 64 MB).
				response.writeHead(200, {'content-type': 'image/png'});
				const chunk = Buffer.alloc(256 * 1024);
				const push = () => {
					while (written.streamed < 64 * mb && !response.destroyed) {
						written.streamed += chunk.length;
						if (!response.write(chunk)) {
							response.once('drain', push);
							return;
						}
					}

					response.end();
				};

				response.on('close', () => undefined);
				push();
				break;
			}

			case '/silent': {
				// Headers, then nothing: the idle timeout ends it.
				response.writeHead(200, {'content-type': 'image/png'});
				response.write(Buffer.from([0x89]));
				break;
			}

			case '/moved': {
				response.writeHead(302, {location: '/small.png'});
				response.end();
				break;
			}

			case '/secret.png': {
				hits++;
				response.writeHead(200, {'content-type': 'image/png'});
				response.end(Buffer.from('89504e470d0a1a0a', 'hex'));
				break;
			}

			case '/small.png': {
				response.writeHead(200, {'content-type': 'image/png'});
				response.end(Buffer.from('89504e470d0a1a0a', 'hex'));
				break;
			}

			default: {
				response.writeHead(404);
				response.end();
			}
		}
	});
	await new Promise<void>(resolve => {
		server.listen(0, '127.0.0.1', resolve);
	});
	base = `http://127.0.0.1:${(server.address() as AddressInfo).port}`;
	// A host the operator allows (standing for a public image host) whose links lead into the loopback.
	redirector = createServer((incoming, response) => {
		const to = new URL(incoming.url!, 'http://x').searchParams.get('to')!;
		response.writeHead(302, {location: to});
		response.end();
	});
	await new Promise<void>(resolve => {
		redirector.listen(0, '127.0.0.2', resolve);
	});
	redirectorBase = `http://127.0.0.2:${(redirector.address() as AddressInfo).port}`;
});

afterAll(async () => {
	redirector.close();
	server.closeAllConnections();
	await new Promise(resolve => {
		server.close(resolve);
	});
	await sim.close();
});

describe('fetching an image link', () => {
	test("the simulator's PNG and JPEG arrive whole, byte for byte, with no key sent", async () => {
		const simHost = new URL(sim.url).host;
		for (const format of ['png', 'jpeg'] as const) {
			const reply = await sim.call('POST', '/v2/black-forest-labs-flux-1-schnell/runsync', {
				body: {input: {prompt: 'a fox', width: 512, height: 256, image_format: format}},
			});
			expect(reply.body.status).toBe('COMPLETED');
			const link = reply.body.output.image_url as string;
			const served = Buffer.from(await (await request(link)).body.arrayBuffer());
			// The simulator is the API podtop was pointed at: its own links are fetched wherever it is.
			const {bytes, contentType} = await fetchImage(link, {policy: {trustedHosts: () => [simHost]}});
			expect(bytes.equals(served)).toBe(true);
			expect(contentType).toBe(format === 'png' ? 'image/png' : 'image/jpeg');
			expect(imageFacts(bytes)).toEqual({type: format, width: 512, height: 256});
		}

		await fetchImage(`${base}/moved`, local);
		expect(seen.length).toBeGreaterThan(0);
		for (const headers of seen) {
			expect(headers.authorization).toBeUndefined();
			expect(headers.cookie).toBeUndefined();
		}
	});

	test('over 20 MB announced: refused before reading, in a sentence', async () => {
		const error = await caught(fetchImage(`${base}/big-announced`, local));
		expect(error).toBeInstanceOf(ImageError);
		expect((error as ImageError).message).toBe("the image is 21.0 MB, over podtop's 20.0 MB limit; not fetched");
	});

	test('over 20 MB as it streams: the download stops there', async () => {
		const error = await caught(fetchImage(`${base}/big-streamed`, local));
		expect(error).toBeInstanceOf(ImageError);
		expect((error as ImageError).kind).toBe('too-large');
		expect((error as ImageError).message).toBe("the image is over podtop's 20.0 MB limit; the download was stopped there");
		// The server was still writing when the client let go: far short of its 64 MB.
		expect(written.streamed).toBeLessThan(40 * mb);
	});

	test('a link that stops sending times out; an expired link is not found; only http(s)', async () => {
		const silent = await caught(fetchImage(`${base}/silent`, {...local, idleMs: 300}));
		expect(silent).toBeInstanceOf(ApiError);
		expect((silent as ApiError).kind).toBe('timeout');
		const gone = await caught(fetchImage(`${base}/expired.png?X-Amz-Signature=secret`, local));
		expect((gone as ApiError).kind).toBe('not-found');
		expect((gone as ApiError).message).toBe(`image ${base}/expired.png: HTTP 404 (an image link lives only as long as the job's result)`);
		const file = await caught(fetchImage('file:///etc/passwd'));
		expect((file as ApiError).message).toBe('the image link is a file link; podtop fetches only http and https links');
	});

	test('links into the loopback, private, link-local and other non-public addresses are not fetched, nor followed there by a redirect, and say why', async () => {
		const {port} = server.address() as AddressInfo;
		const refusals = {
			[`http://127.0.0.1:${port}/secret.png`]: '127.0.0.1 is a loopback address',
			[`http://localhost:${port}/secret.png`]: 'localhost is 127.0.0.1, a loopback address',
			[`http://[::1]:${port}/secret.png`]: '::1 is a loopback address',
			[`http://[::ffff:127.0.0.1]:${port}/secret.png`]: '::ffff:7f00:1 is a loopback address',
			[`http://2130706433:${port}/secret.png`]: '127.0.0.1 is a loopback address',
			'http://10.1.2.3/a.png': '10.1.2.3 is a private address',
			'http://192.168.0.1/a.png': '192.168.0.1 is a private address',
			'http://169.254.169.254/latest/meta-data/a.png': '169.254.169.254 is a link-local address',
			'http://100.64.0.1/a.png': '100.64.0.1 is a shared (CGNAT) address',
			'http://0.0.0.0/a.png': '0.0.0.0 is an unspecified address',
			'http://[fd00::1]/a.png': 'fd00::1 is a unique-local address',
			'http://[fe80::1]/a.png': 'fe80::1 is a link-local address',
			'http://[ff02::1]/a.png': 'ff02::1 is a multicast address',
			'http://[::ffff:10.0.0.1]/a.png': '::ffff:a00:1 is a private address',
			// A host the operator allows, that sends the fetch on into the loopback.
			[`${redirectorBase}/a.png?to=${encodeURIComponent(`http://127.0.0.1:${port}/secret.png`)}`]: '127.0.0.1 is a loopback address',
			[`${redirectorBase}/a.png?to=${encodeURIComponent(`http://localhost:${port}/secret.png`)}`]: 'localhost is 127.0.0.1, a loopback address',
		};
		for (const [link, why] of Object.entries(refusals)) {
			const error = await caught(fetchImage(link, {policy: {allow: ['127.0.0.2']}, connectMs: 1000}));
			expect(error).toBeInstanceOf(ImageError);
			expect((error as ImageError).kind).toBe('refused');
			expect((error as ImageError).message).toBe(`picture not fetched: ${why} (allow it in config.toml [images])`);
		}

		expect(hits).toBe(0);
		// What the operator allows is fetched: the address, a range, or the name.
		for (const allow of ['127.0.0.1', '127.0.0.0/8', 'localhost', '::ffff:127.0.0.0/104']) {
			const host = allow === 'localhost' ? 'localhost' : '127.0.0.1';
			await fetchImage(`${redirectorBase}/a.png?to=${encodeURIComponent(`http://${host}:${port}/secret.png`)}`, {policy: {allow: ['127.0.0.2', allow]}});
		}

		expect(hits).toBe(4);
	});
});
