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
});

afterAll(async () => {
	server.closeAllConnections();
	await new Promise(resolve => {
		server.close(resolve);
	});
	await sim.close();
});

describe('fetching an image link', () => {
	test("the simulator's PNG and JPEG arrive whole, byte for byte, with no key sent", async () => {
		for (const format of ['png', 'jpeg'] as const) {
			const reply = await sim.call('POST', '/v2/black-forest-labs-flux-1-schnell/runsync', {
				body: {input: {prompt: 'a fox', width: 512, height: 256, image_format: format}},
			});
			expect(reply.body.status).toBe('COMPLETED');
			const link = reply.body.output.image_url as string;
			const served = Buffer.from(await (await request(link)).body.arrayBuffer());
			const {bytes, contentType} = await fetchImage(link);
			expect(bytes.equals(served)).toBe(true);
			expect(contentType).toBe(format === 'png' ? 'image/png' : 'image/jpeg');
			expect(imageFacts(bytes)).toEqual({type: format, width: 512, height: 256});
		}

		await fetchImage(`${base}/moved`);
		expect(seen.length).toBeGreaterThan(0);
		for (const headers of seen) {
			expect(headers.authorization).toBeUndefined();
			expect(headers.cookie).toBeUndefined();
		}
	});

	test('over 20 MB announced: refused before reading, in a sentence', async () => {
		const error = await caught(fetchImage(`${base}/big-announced`));
		expect(error).toBeInstanceOf(ImageError);
		expect((error as ImageError).message).toBe("the image is 21.0 MB, over podtop's 20.0 MB limit; not fetched");
	});

	test('over 20 MB as it streams: the download stops there', async () => {
		const error = await caught(fetchImage(`${base}/big-streamed`));
		expect(error).toBeInstanceOf(ImageError);
		expect((error as ImageError).kind).toBe('too-large');
		expect((error as ImageError).message).toBe("the image is over podtop's 20.0 MB limit; the download was stopped there");
		// The server was still writing when the client let go: far short of its 64 MB.
		expect(written.streamed).toBeLessThan(40 * mb);
	});

	test('a link that stops sending times out; an expired link is not found; only http(s)', async () => {
		const silent = await caught(fetchImage(`${base}/silent`, {idleMs: 300}));
		expect(silent).toBeInstanceOf(ApiError);
		expect((silent as ApiError).kind).toBe('timeout');
		const gone = await caught(fetchImage(`${base}/expired.png?X-Amz-Signature=secret`));
		expect((gone as ApiError).kind).toBe('not-found');
		expect((gone as ApiError).message).toBe(`image ${base}/expired.png: HTTP 404 (an image link lives only as long as the job's result)`);
		const file = await caught(fetchImage('file:///etc/passwd'));
		expect((file as ApiError).message).toBe('the image link is a file link; podtop fetches only http and https links');
	});
});
