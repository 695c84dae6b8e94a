import {request} from 'undici';
import {afterAll, beforeAll, describe, expect, test} from 'vitest';
import {decodePicture} from '../../source/images/decode-picture.js';
import {halfBlock, halfBlockCells, halfBlockLines} from '../../source/images/half-blocks.js';
import {ansiCells} from '../helpers/ansi-cells.js';
import {startTestSim, type TestSim} from '../helpers/sim-client.js';
import {hasTmux, TmuxSession} from '../helpers/tmux.js';

const flux = 'black-forest-labs-flux-1-schnell';
let sim: TestSim;
let session: TmuxSession | undefined;

beforeAll(async () => {
	sim = await startTestSim({endpoints: [{id: flux, name: flux, worker: 'flux-schnell', workersMin: 1, workersMax: 1, flashBoot: true}]});
});

afterAll(async () => {
	session?.close();
	await sim.close();
});

/** The screen's lines that are all half-blocks, read as a terminal would. */
const pictureRows = (screen: string) =>
	screen
		.split('\n')
		.map(line => ansiCells(line))
		.filter(cells => cells.length > 0 && cells.every(cell => cell.char === halfBlock));

/**
Waits (up to ten seconds: a first decode on a busy machine is slow) for the picture's rows on the
screen, the same in two captures a tenth of a second apart (a capture can fall inside a frame being written).
*/
async function pictureOn(terminal: TmuxSession) {
	const deadline = Date.now() + 10_000;
	let previous = '';
	let rows: ReturnType<typeof pictureRows> = [];
	while (Date.now() < deadline) {
		await new Promise(resolve => setTimeout(resolve, 100));
		const screen = terminal.colourScreen();
		rows = pictureRows(screen);
		if (rows.length > 0 && screen === previous) {
			break;
		}

		previous = screen;
	}

	return rows;
}

describe.runIf(hasTmux)('the job view in a real terminal', () => {
	test.each(['png', 'jpeg'] as const)(
		"podtop job on a finished %s job: the simulator's picture in colour half-blocks, cell by cell, and the line that says what it is",
		async format => {
			const reply = await sim.call('POST', `/v2/${flux}/runsync`, {body: {input: {prompt: 'a red fox', width: 256, height: 256, image_format: format}}});
			expect(reply.body.status).toBe('COMPLETED');
			const link = reply.body.output.image_url as string;
			const served = Buffer.from(await (await request(link)).body.arrayBuffer());
			session = new TmuxSession(100, 30, ['job', flux, reply.body.id, '--api-url', `${sim.url}/v2`, '--graphql-url', `${sim.url}/graphql`], {
				RUNPOD_API_KEY: sim.apiKey,
				COLORTERM: 'truecolor',
			});
			// The link is cut to the view's width with an ellipsis.
			const screen = await session.waitFor(new RegExp(String.raw`\nimage 256×256 \(${format}\) http://127\.0\.0\.1:\d+/__sim/outputs/sync-`), 20_000);
			const shown = /\nimage \S+ \(\w+\) (http:\S+?)…?\n/.exec(screen)![1]!;
			expect(link.startsWith(shown)).toBe(true);
			// The endpoint's name may be cut with an ellipsis: at 100 columns the title also says how the job ended.
			expect(screen).toMatch(new RegExp(`Job ${reply.body.id} on ${flux.slice(0, -3)}`));
			// The line comes first (with the size, from the file's header), the picture once it is decoded.
			const drawn = await pictureOn(session);
			// Square, in the rows the view leaves it: as many cells across as pixel rows down.
			expect(drawn.length).toBeGreaterThanOrEqual(8);
			expect(drawn[0]).toHaveLength(drawn.length * 2);
			const expected = halfBlockLines(halfBlockCells(decodePicture(served, {columns: drawn[0]!.length, rows: drawn.length})), 3).map(line => ansiCells(line));
			expect(drawn).toEqual(expected);
			session.send('q');
			await session.waitFor(/PODTOP-EXIT 0/);
			session.close();
			session = undefined;
		},
		60_000,
	);
});
