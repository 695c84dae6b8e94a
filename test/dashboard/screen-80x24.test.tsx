import {afterEach, describe, expect, test} from 'vitest';
import {App} from '../../source/dashboard/app.js';
import type {Engine} from '../../source/engine/create-engine.js';
import {asciiTerminal} from '../../source/dashboard/ascii-terminal.js';
import {asciiGlyphs, unicodeGlyphs, type Glyphs} from '../../source/format/glyphs.js';
import {engineFor} from '../helpers/engine.js';
import {startTestSim, type TestSim} from '../helpers/sim-client.js';
import {frameMatching, renderWith, tick} from '../helpers/ui-fixture.js';

let sim: TestSim | undefined;
let engine: Engine | undefined;
afterEach(async () => {
	await engine?.close();
	await sim?.close();
	engine = undefined;
	sim = undefined;
});

const keys = {enter: '\r', escape: '\u001B', tab: '\t'};

/** A frame's lines without escape sequences (colours are off; Ink may still send some). */
const plain = (frame: string) => frame.replaceAll(/\u001B\[[\d;?]*[A-Za-z]/g, '');

/** Every view at 80×24 as a new user reaches it, with the line that names it; `readOnly` skips the forms. */
type Shot = {readonly name: string; readonly frame: string};

async function walk(glyphs: Glyphs, readOnly: boolean) {
	sim = await startTestSim({graphqlRate: 1000});
	// Every pod fact on screen at 80×24: GraphQL's (v2 leaves a pod's vCPUs, memory and machine unknown).
	engine = await engineFor(sim, {poll: ['endpoints', 'pods', 'gpus'], readOnly, budget: {graphqlPerWindow: 200}, managementApi: 'graphql'});
	engine.start();
	const {lastFrame, stdin} = renderWith({store: engine.store}, <App readOnly={readOnly} />, {
		engine,
		glyphs,
		view: {columns: 80, rows: 24},
		// As the dashboard draws: in ASCII mode every frame is made ASCII on its way out.
		terminal: stdout => asciiTerminal(stdout, () => glyphs === asciiGlyphs),
	});
	const shots: Shot[] = [];
	const shot = async (name: string, title: RegExp) => {
		const frame = await frameMatching(lastFrame, title, 15_000);
		// Let slower parts (charts, details) arrive, then take the frame as it is.
		await tick(150);
		shots.push({name, frame: lastFrame() ?? frame});
	};

	// A key at a time, each read on its own (Esc and a key read together would be Alt and that key).
	const press = async (text: string) => {
		stdin.write(text);
		await tick(60);
	};

	const filter = async (text: string) => {
		await press('/');
		await tick();
		await press(text);
		await tick();
		await press(keys.enter);
		await tick();
	};

	await shot('endpoints', /^Endpoints \(\d+\)[\s\S]*llama/m);
	await filter('llama');
	await press(keys.enter);
	await shot('endpoint details', /^llama-3-8b-instruct-vllm \(\w+\)[\s\S]*Tracked jobs/m);
	await press('?');
	await shot('help on endpoint details', /Keys: Endpoint details/);
	await press(keys.escape);
	if (!readOnly) {
		await press('n');
		await shot('job form', /new job|send|input/i);
		await press(keys.escape);
	}

	await tick();
	await press(keys.escape);
	await press('2');
	await shot('pods', /^Pods \(\d+\)[\s\S]*jupyter-research/m);
	await press('/');
	await tick();
	await shot('filter bar', /^\/ /m);
	await press('jupyter');
	await tick();
	await press(keys.enter);
	await tick();
	await press(keys.enter);
	await shot('pod details', /env {7}\S[\s\S]*22 .*tcp/m);
	await press(keys.escape);
	await press('3');
	await shot('gpus', /^GPUs \(\d+\)[\s\S]*GPU TYPE/m);
	await press(keys.enter);
	await shot('gpu details', /^\S.* \(.+\) .* GB {2}/m);
	if (!readOnly) {
		await press('d');
		await shot('deploy form', /Deploy/);
		await press(keys.escape);
		await tick();
	}

	await press(keys.escape);
	await press('?');
	await shot('help on GPUs', /Keys: GPUs/);
	await press(keys.escape);
	await press(':');
	await shot('palette', /^:/m);
	if (!readOnly) {
		await press('endpoint new\r');
		await shot('endpoint form', /New endpoint/);
		await press(keys.escape);
	}

	await press(keys.escape);
	await press(':');
	await press('alerts\r');
	await shot('alerts', /^Alerts firing \(\d+\)/m);
	await press(keys.escape);
	await press(':');
	await press('events\r');
	await shot('events', /^Events \(\d+\)[\s\S]*TIME +TYPE/m);
	await press(keys.escape);
	// Over GraphQL the Spend pane says where bills are (the pane with bills is walked in screen-80x24-spend).
	await press('4');
	await shot('spend', /^Spend [\s\S]*no bills: REST v2 publishes them/m);
	await press(keys.escape);
	return {shots, press, lastFrame};
}

/** The first line of the body (under the header and the tabs) for each view, which must be there. */
const titles: Readonly<Record<string, RegExp>> = {
	endpoints: /^Endpoints \(\d+\)/,
	'endpoint details': /^llama-3-8b-instruct-vllm \(\w+\)/,
	'help on endpoint details': /Keys: Endpoint details/,
	'job form': /job/i,
	pods: /^Pods \(\d+\)/,
	'filter bar': /^Pods \(\d+\)/,
	'pod details': /^jupyter-research \(\w+\) RUNNING/,
	gpus: /^GPUs \(\d+\)/,
	'gpu details': /^\S.* \(.+\)/,
	'deploy form': /Deploy/,
	'help on GPUs': /Keys: GPUs/,
	palette: /^GPUs \(\d+\)/,
	'endpoint form': /New endpoint/,
	alerts: /^Alerts firing \(\d+\)/,
	events: /^Events \(\d+\)/,
	spend: /^Spend /,
};

describe('every view at 80×24', () => {
	test('keeps its title line and stays inside the terminal: at most 24 lines of at most 80 columns; pod details show all of it, nothing drawn over', async () => {
		const {shots} = await walk(unicodeGlyphs, false);
		expect(shots.map(shot => shot.name)).toEqual(Object.keys(titles));
		for (const {name, frame} of shots) {
			const lines = plain(frame).split('\n');
			expect(lines.length, `${name}:\n${frame}`).toBeLessThanOrEqual(24);
			for (const line of lines) {
				expect([...line].length, `${name}: ${line}`).toBeLessThanOrEqual(80);
			}

			// The header, the tabs, then the view's own title.
			expect(lines[0], `${name}:\n${frame}`).toMatch(/^podtop /);
			const title = titles[name]!;
			expect(
				lines.slice(2, 4).some(line => title.test(line.replace(/^[│|+] ?/, ''))),
				`${name}: no title line:\n${frame}`,
			).toBe(true);
		}

		// The pod details end with the env line and both ports whole, below the charts' time axis.
		const pod = plain(shots.find(shot => shot.name === 'pod details')!.frame).split('\n');
		const env = pod.findIndex(line => line.startsWith('env '));
		expect(env, pod.join('\n')).toBeGreaterThan(0);
		expect(pod[env]).toMatch(/^env {7}JUPYTER_PASSWORD=•{4} {2}PUBLIC_KEY=•{4}/);
		expect(pod.slice(env + 1).join('\n')).toMatch(/8888 → 8888 +http[\s\S]*22 → \d+ +tcp/);
		expect(pod.slice(env + 1).join('\n'), 'the ports are after the env line').not.toMatch(/ 0% /);
	}, 120_000);
});

describe('read-only at 80×24', () => {
	test('no write key is offered in any view, and pressing one says why nothing happens', async () => {
		const {shots, press, lastFrame} = await walk(unicodeGlyphs, true);
		expect(shots.length).toBeGreaterThanOrEqual(9);
		for (const {name, frame} of shots) {
			expect(frame, name).not.toMatch(/\b(?:t test job|n new job|x stop|u resume|d deploy|e edit|c cancel|n sends a job)\b/);
		}

		// Back on the pods, on jupyter-research: x is stop, which read-only mode refuses in words.
		await press('2');
		await frameMatching(lastFrame, /^Pods \(\d+/m);
		await press('x');
		await frameMatching(lastFrame, /^read-only mode: x stop is off/m);
		await press('1');
		await press('t');
		await frameMatching(lastFrame, /^read-only mode: t test job is off/m);
		expect(lastFrame()).not.toMatch(/Send a test job/);
	}, 120_000);
});

describe('--ascii at 80×24', () => {
	test('nothing outside ASCII reaches the terminal in any view (escape sequences aside), and the borders are ASCII boxes', async () => {
		const {shots} = await walk(asciiGlyphs, false);
		expect(shots.length).toBe(Object.keys(titles).length);
		for (const {name, frame} of shots) {
			const text = plain(frame);
			const outside = [...text].filter(character => character.codePointAt(0)! > 0x7e);
			expect(outside.join(''), `${name}:\n${frame}`).toBe('');
		}

		const help = plain(shots.find(shot => shot.name === 'help on GPUs')!.frame);
		expect(help).toMatch(/^\+-{10,}\+$/m);
		expect(help).toMatch(/^\| Keys: GPUs/m);
	}, 120_000);
});
