import {createServer, type Server} from 'node:http';
import type {AddressInfo} from 'node:net';
import {request} from 'undici';
import {afterAll, beforeAll, describe, expect, test} from 'vitest';
import {asciiGlyphs} from '../../source/format/glyphs.js';
import {decodePicture} from '../../source/images/decode-picture.js';
import {halfBlock, halfBlockCells, halfBlockLines} from '../../source/images/half-blocks.js';
import {createImageLoader, type ImageLoader} from '../../source/images/image-loader.js';
import {JobView} from '../../source/panes/job-view.js';
import {encodePng} from '../../source/sim/images/png.js';
import {ansiCells} from '../helpers/ansi-cells.js';
import {startTestSim, type TestSim} from '../helpers/sim-client.js';
import {renderWith, testStore} from '../helpers/ui-fixture.js';

let sim: TestSim;
let server: Server;
let base: string;
const loaders: ImageLoader[] = [];
/** GETs per path on the local server. */
const hits = new Map<string, number>();
let proxied: Buffer;

/**
A loader as the dashboard makes it: the simulator is the API it was pointed at (its own links are
fetched), and config.toml allows the local server, which stands for an image host on the operator's network.
*/
const loader = () => {
	const created = createImageLoader({policy: {allow: ['127.0.0.1'], trustedHosts: () => [new URL(sim.url).host]}});
	loaders.push(created);
	return created;
};

/** A finished FLUX job on the simulator: its status body, and the bytes its link serves. */
async function fluxJob(format: 'png' | 'jpeg', width: number, height: number) {
	const reply = await sim.call('POST', '/v2/black-forest-labs-flux-1-schnell/runsync', {body: {input: {prompt: 'a fox', width, height, image_format: format}}});
	expect(reply.body.status).toBe('COMPLETED');
	const served = Buffer.from(await (await request(reply.body.output.image_url as string)).body.arrayBuffer());
	return {body: reply.body, served};
}

function showJob(body: {id: string; status: 'COMPLETED'; output?: unknown}) {
	const store = testStore();
	const key = store.writes.trackJob('black-forest-labs-flux-1-schnell', body.id, {follow: true});
	store.writes.updateJob(key, body, 1);
	return store;
}

/** Waits (up to ten seconds: a first decode on a busy machine is slow) until the frame shows `rows` rows of picture. */
async function pictureDrawn(lastFrame: () => string | undefined, rows?: number, columns?: number): Promise<string> {
	const deadline = Date.now() + 10_000;
	while (Date.now() < deadline) {
		const picture = pictureRows(lastFrame() ?? '');
		if (picture.length > 0 && (rows === undefined || picture.length === rows) && (columns === undefined || picture[0]!.length === columns)) {
			return lastFrame()!;
		}

		await new Promise(resolve => setTimeout(resolve, 20));
	}

	throw new Error(`no picture${rows === undefined ? '' : ` of ${rows} rows`} was drawn:\n${lastFrame()}`);
}

/** Waits (up to ten seconds: fetches and decodes on a busy machine are slow) until the frame matches. */
async function settled(lastFrame: () => string | undefined, pattern: RegExp): Promise<string> {
	const deadline = Date.now() + 10_000;
	while (!pattern.test(lastFrame() ?? '') && Date.now() < deadline) {
		await new Promise(resolve => setTimeout(resolve, 20));
	}

	expect(lastFrame()).toMatch(pattern);
	return lastFrame()!;
}

/** The frame's lines that are all half-blocks, read as a terminal would. */
const pictureRows = (frame: string) =>
	frame
		.split('\n')
		.map(line => ansiCells(line))
		.filter(cells => cells.length > 0 && cells.every(cell => cell.char === halfBlock));

beforeAll(async () => {
	sim = await startTestSim();
	const png = encodePng(64, 64, (x, y) => [x * 4, y * 4, 128]);
	server = createServer((incoming, response) => {
		const path = incoming.url ?? '';
		hits.set(path, (hits.get(path) ?? 0) + 1);
		switch (path) {
			case '/cut.png': {
				response.writeHead(200, {'content-type': 'image/png'});
				response.end(png.subarray(0, -30));

				break;
			}

			case '/huge.png': {
				response.writeHead(200, {'content-type': 'image/png', 'content-length': 21 * 1024 * 1024});
				response.end();

				break;
			}

			case '/counted.png': {
				response.writeHead(200, {'content-type': 'image/png'});
				response.end(proxied);

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
	for (const each of loaders) {
		each.close();
	}

	server.closeAllConnections();
	await new Promise(resolve => {
		server.close(resolve);
	});
	await sim.close();
});

describe('a finished image job shows its picture', () => {
	test.each(['png', 'jpeg'] as const)("the simulator's real %s: fetched, decoded and drawn cell by cell under the job's facts", async format => {
		const {body, served} = await fluxJob(format, 512, 384);
		const store = showJob(body);
		// 120×40: four fixed lines, 36 rows of body; the text keeps its 6 lines, the picture 29 rows and its line.
		const {lastFrame} = renderWith(store, <JobView endpointId='black-forest-labs-flux-1-schnell' jobId={body.id} width={120} height={40} />, {
			pictures: {loader: loader(), level: 3},
		});
		const frame = await pictureDrawn(lastFrame);
		expect(frame).toMatch(
			new RegExp(`\nimage 512×384 \\(${format}\\) http://127\\.0\\.0\\.1:\\d+/__sim/outputs/${body.id}\\.${format === 'png' ? 'png' : 'jpg'}\n`),
		);
		const drawn = pictureRows(frame);
		// 512×384 in 120 columns × 29 rows (58 pixels high): 77×58 pixels, 29 rows of 77 cells.
		const expected = halfBlockLines(halfBlockCells(decodePicture(served, {columns: 120, rows: 29})), 3).map(line => ansiCells(line));
		expect(drawn).toHaveLength(29);
		expect(drawn[0]).toHaveLength(77);
		expect(drawn).toEqual(expected);
		// The picture sits under the title, status, metrics and rule; the cost and the output follow it.
		const lines = lastFrame()!.split('\n');
		expect(lines[0]).toMatch(/^Job .+ on black-forest-labs-flux-1-schnell {2}Esc back/);
		expect(lines[1]).toMatch(/^COMPLETED/);
		expect(ansiCells(lines[4]!)[0]!.char).toBe(halfBlock);
		expect(lines[33]).toMatch(/^image 512×384/);
		expect(frame).toMatch(/billed \$0\.0004718592/);
		expect(lines.length).toBeLessThanOrEqual(40);
	});

	test('a resize draws it again at the new size; the link is fetched once', async () => {
		const {body, served} = await fluxJob('png', 256, 256);
		proxied = served;
		const output = {image_url: `${base}/counted.png`, cost: 0.0001};
		const store = showJob({...body, output});
		const pictures = {loader: loader(), level: 3 as const};
		const view = renderWith(store, <JobView endpointId='black-forest-labs-flux-1-schnell' jobId={body.id} width={100} height={30} />, {pictures});
		// 100×30: 26 rows of body, the text's 6 lines, 19 rows of picture: 38×38 pixels.
		await pictureDrawn(view.lastFrame, 19, 38);
		view.rerender(<JobView endpointId='black-forest-labs-flux-1-schnell' jobId={body.id} width={60} height={20} />);
		// 60×20: 16 rows of body, a quarter (4) for the text, 11 rows of picture: 22×22 pixels.
		const drawn = pictureRows(await pictureDrawn(view.lastFrame, 11, 22));
		expect(drawn).toEqual(halfBlockLines(halfBlockCells(decodePicture(served, {columns: 60, rows: 11})), 3).map(line => ansiCells(line)));
		expect(hits.get('/counted.png')).toBe(1);
	});

	test('--ascii or no colour: the plain line, with size and format', async () => {
		const {body} = await fluxJob('png', 256, 512);
		const store = showJob(body);
		for (const options of [
			{glyphs: asciiGlyphs, times: 'x'},
			{glyphs: undefined, times: '×'},
		]) {
			const {lastFrame} = renderWith(store, <JobView endpointId='black-forest-labs-flux-1-schnell' jobId={body.id} width={140} height={30} />, {
				glyphs: options.glyphs,
				pictures: {loader: loader(), level: 0},
			});
			const frame = await settled(
				lastFrame,
				new RegExp(String.raw`image 256${options.times}512 \(png\) http://127\.0\.0\.1:\d+/__sim/outputs/${body.id}\.png`),
			);
			expect(frame).not.toContain(halfBlock);
			expect(frame).not.toContain('\u001B[');
		}
	});

	test('a broken image says so and draws nothing; one over 20 MB is refused', async () => {
		for (const [path, said] of [
			[
				'/cut.png',
				/image 64×64 \(png\) http:\/\/127\.0\.0\.1:\d+\/cut\.png │ the PNG is broken \(it ends after [\d,]+ bytes, before its end marker: cut short\); nothing drawn/,
			],
			['/huge.png', /image http:\/\/127\.0\.0\.1:\d+\/huge\.png │ the image is 21\.0 MB, over podtop's 20\.0 MB limit; not fetched/],
		] as const) {
			const store = showJob({id: `job-${path}`, status: 'COMPLETED', output: {image_url: `${base}${path}`}});
			const {lastFrame} = renderWith(store, <JobView endpointId='black-forest-labs-flux-1-schnell' jobId={`job-${path}`} width={200} height={30} />, {
				pictures: {loader: loader(), level: 3},
			});
			const frame = await settled(lastFrame, said);
			expect(frame).not.toContain(halfBlock);
		}
	});

	test('a link into the loopback in untrusted output is not fetched by the dashboard unless config.toml allows it, and the view says why', async () => {
		const store = showJob({id: 'job-private', status: 'COMPLETED', output: {image_url: `${base}/private.png`}});
		// As the dashboard makes it with no [images] section: the API's host (the simulator's) alone is trusted.
		const strict = createImageLoader({policy: {trustedHosts: () => [new URL(sim.url).host]}});
		loaders.push(strict);
		const {lastFrame} = renderWith(store, <JobView endpointId='black-forest-labs-flux-1-schnell' jobId='job-private' width={200} height={30} />, {
			pictures: {loader: strict, level: 3},
		});
		await settled(
			lastFrame,
			/image http:\/\/127\.0\.0\.1:\d+\/private\.png │ picture not fetched: 127\.0\.0\.1 is a loopback address \(allow it in config\.toml \[images]\)/,
		);
		expect(hits.get('/private.png')).toBeUndefined();
	});
});
