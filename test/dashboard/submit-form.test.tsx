import {afterEach, describe, expect, test} from 'vitest';
import {App} from '../../source/dashboard/app.js';
import type {Engine} from '../../source/engine/create-engine.js';
import {engineFor, simStats} from '../helpers/engine.js';
import {startTestSim, waitFor, type TestSim} from '../helpers/sim-client.js';
import {frameMatching, renderWith, tick} from '../helpers/ui-fixture.js';

const keys = {
	tab: '\t',
	enter: '\r',
	escape: '\u001B',
	up: '\u001B[A',
	down: '\u001B[B',
	right: '\u001B[C',
	backspace: '\u007F',
	end: '\u001B[F',
	ctrlS: '\u0013',
};
const schnell = 'black-forest-labs-flux-1-schnell';

let sim: TestSim | undefined;
let engine: Engine | undefined;
afterEach(async () => {
	await engine?.close();
	await sim?.close();
	engine = undefined;
	sim = undefined;
});

async function dashboard(readOnly = false) {
	sim = await startTestSim({
		endpoints: [
			{id: 'ep-echo', name: 'echo', workersMin: 1, workersMax: 1, flashBoot: true},
			{id: schnell, name: schnell, worker: 'flux-schnell', workersMin: 1, workersMax: 1, flashBoot: true},
		],
	});
	engine = await engineFor(sim, {poll: ['endpoints', 'jobs'], readOnly, budget: {graphqlPerWindow: 50}});
	engine.start();
	const rendered = renderWith({store: engine.store}, <App readOnly={readOnly} />, {engine});
	await frameMatching(rendered.lastFrame, /echo/);
	return rendered;
}

/**
Presses keys one read at a time, as a person types, with a frame between. A lone Esc waits longer:
Ink 8 holds it 20 ms to see whether a sequence follows, so Esc and ':' 5 ms apart read as Alt-':'.
*/
async function press(stdin: {write: (data: string) => void}, ...sequence: string[]) {
	for (const key of sequence) {
		stdin.write(key);
		await tick(key === '\u001B' ? 40 : 5);
	}
}

const requests = async (endpointId: string, route: string) => (await simStats(sim!))[endpointId]?.[route]?.requests ?? 0;

describe('the submit form', () => {
	test('n opens it; JSON is checked as typed; a bad field keeps it from being sent; N keeps the draft; y sends once and follows the job', async () => {
		const {lastFrame, stdin, view} = await dashboard();
		await press(stdin, ':run ep-echo', keys.enter);
		await frameMatching(lastFrame, /New job on echo/);
		expect(lastFrame()).toMatch(/valid JSON/);
		expect(lastFrame()).toMatch(/\/run · 40 B of 10 MB/);
		// Break the JSON: the problem shows at once, with where it is.
		await press(stdin, keys.backspace);
		await frameMatching(lastFrame, /is not valid JSON \(line 3, column 1: expected ',' or '}' after property value\)/);
		await press(stdin, '}', keys.up, keys.end, keys.backspace);
		await frameMatching(lastFrame, /is not valid JSON \(line 2, column 31: bad control character in string literal\)/);
		await press(stdin, '"', keys.down, keys.down);
		// Past the editor's last line the focus moves on: route, then runsync shows its wait.
		expect(view.getState().overlay).toMatchObject({type: 'form', focus: 1});
		await press(stdin, keys.right);
		await frameMatching(lastFrame, /wait \(ms\)/);
		expect(lastFrame()).toMatch(/\/runsync · 40 B of 20 MB/);
		await press(stdin, keys.tab, '500');
		await frameMatching(lastFrame, /wait \(ms\) +500.*is in milliseconds, 1000 to 300000/);
		await press(stdin, keys.ctrlS);
		await frameMatching(lastFrame, /not sent: wait \(ms\) is in milliseconds/);
		await press(stdin, '0');
		await frameMatching(lastFrame, /\[ Send ] {2}\/runsync/);
		// Tab to the webhook, type a URL the service cannot call.
		await press(stdin, keys.tab, keys.tab, keys.tab, keys.tab, 'ftp://x');
		await frameMatching(lastFrame, /must be an http or https URL, not ftp/);
		await press(stdin, keys.backspace.repeat(7), keys.ctrlS);
		await frameMatching(lastFrame, /Send this job to echo \(\/runsync · 40 B of 20 MB\)\? y\/N/);
		await press(stdin, 'n');
		await frameMatching(lastFrame, /cancelled: nothing was sent/);
		expect(await requests('ep-echo', 'runsync')).toBe(0);
		// The draft comes back as it was left (n on the selected row: echo is second, after the image model).
		await press(stdin, 'j', 'n');
		await frameMatching(lastFrame, /wait \(ms\) +5000/);
		await press(stdin, keys.ctrlS);
		await frameMatching(lastFrame, /y\/N/);
		await press(stdin, 'y');
		await waitFor(() => /Job sync-\S+ on ep-echo/.test(lastFrame() ?? '') && (lastFrame() ?? '').includes('COMPLETED'), 10_000);
		expect(lastFrame()).toMatch(/"prompt": "Hello from podtop"/);
		expect(await requests('ep-echo', 'runsync')).toBe(1);
	});

	test("keys pressed twice never send twice: y y sends one job; Enter on Send twice sends none (the review's default is No)", async () => {
		const {lastFrame, stdin} = await dashboard();
		await press(stdin, ':run ep-echo', keys.enter);
		await frameMatching(lastFrame, /New job on echo/);
		await press(stdin, keys.ctrlS);
		await frameMatching(lastFrame, /y\/N/);
		stdin.write('yy');
		await frameMatching(lastFrame, /Job \S+ on ep-echo/);
		await tick(300);
		expect(await requests('ep-echo', 'run')).toBe(1);
		await press(stdin, keys.escape, ':run ep-echo', keys.enter);
		await frameMatching(lastFrame, /New job on echo/);
		// Shift-Tab from the first field lands on Send.
		await press(stdin, '\u001B[Z');
		stdin.write('\r\r');
		await frameMatching(lastFrame, /cancelled: nothing was sent/);
		await tick(300);
		expect(await requests('ep-echo', 'run')).toBe(1);
	});

	test('a paste lands in the JSON editor in one piece, new lines and all', async () => {
		const {lastFrame, stdin, view} = await dashboard();
		await press(stdin, ':run ep-echo', keys.enter);
		await frameMatching(lastFrame, /New job on echo/);
		await press(stdin, keys.backspace.repeat(40));
		stdin.write('{\r  "payload": "pasted",\r  "delay_ms": 10\r}');
		await frameMatching(lastFrame, /"payload": "pasted"/);
		const {overlay} = view.getState();
		expect(overlay.type === 'form' && JSON.parse(overlay.values.input!)).toEqual({payload: 'pasted', delay_ms: 10});
	});

	test('the image model gets a prompt form with a live cost; out-of-range values cannot be sent; the result shows the image and its cost', async () => {
		const {lastFrame, stdin} = await dashboard();
		await press(stdin, `:run ${schnell}`, keys.enter);
		await frameMatching(lastFrame, /New image on FLUX\.1 schnell/);
		expect(lastFrame()).toMatch(/prompt +.*is required: say what to draw/);
		expect(lastFrame()).toMatch(/cost \$0\.0025165824 \(1024×1024 = 1\.05 MP\)/);
		await press(stdin, 'a red fox', keys.tab, keys.backspace.repeat(4), '1000', keys.tab, keys.backspace.repeat(4), '512', keys.tab, keys.backspace, '9');
		await frameMatching(lastFrame, /width +1000 .*must be a multiple of 16 \(992 or 1008\)/);
		expect(lastFrame()).toMatch(/steps +9 .*must be a whole number from 1 to 8 on this model/);
		expect(lastFrame()).toMatch(/cost: fix the size to see it · 2 to fix/);
		await press(stdin, keys.ctrlS);
		await frameMatching(lastFrame, /not sent: width must be a multiple of 16/);
		await press(stdin, keys.backspace.repeat(4), '768', keys.down, keys.down, keys.backspace, '4');
		await frameMatching(lastFrame, /cost \$0\.00094371840?\b/);
		await press(stdin, keys.ctrlS);
		await frameMatching(lastFrame, /Send this job to black-forest-labs-flux-1-schnell \(768×512 jpeg, \$0\.0009437184\)\? y\/N/);
		expect(await requests(schnell, 'run')).toBe(0);
		await press(stdin, 'y');
		await waitFor(() => (lastFrame() ?? '').includes('COMPLETED'), 10_000);
		expect(lastFrame()).toMatch(/image http:\/\/127\.0\.0\.1:\d+\/__sim\/outputs\/\S+\.jpg/);
		expect(lastFrame()).toMatch(/billed \$0\.0009437184/);
		expect(await requests(schnell, 'run')).toBe(1);
	});

	test('read-only: n is gone and the palette refuses :run', async () => {
		const {lastFrame, stdin} = await dashboard(true);
		await press(stdin, 'n');
		await tick(50);
		expect(lastFrame()).not.toMatch(/New job/);
		await press(stdin, ':run ep-echo', keys.enter);
		await frameMatching(lastFrame, /read-only|unknown command/);
		expect(lastFrame()).not.toMatch(/New job/);
	});
});
