import {mkdtempSync, readFileSync, rmSync} from 'node:fs';
import {tmpdir} from 'node:os';
import path from 'node:path';
import {pathToFileURL} from 'node:url';
import {build, type Plugin} from 'esbuild';
import {afterAll, beforeAll, describe, expect, test} from 'vitest';
// @ts-expect-error -- a build script in plain JavaScript, without types
import {applyEdits, checkInkVersion, inkPatches, inkPatchPlugin, inkVersion} from '../../scripts/ink-patches.js';

type Edit = {readonly find: string; readonly replace: string};
type Patch = {readonly file: RegExp; readonly edits: readonly Edit[]};
type OutputInstance = {
	write: (x: number, y: number, text: string, options: {transformers: Array<(line: string, index: number) => string>}) => void;
	clip: (clip: {x1?: number; x2?: number; y1?: number; y2?: number}) => void;
	unclip: () => void;
	get: () => {output: string; height: number};
};
type Ink = {
	readonly Output: new (options: {width: number; height: number}) => OutputInstance;
	readonly renderToString: (node: unknown, options?: {columns?: number}) => string;
	readonly Box: unknown;
	readonly Text: unknown;
	readonly createElement: (type: unknown, props?: Record<string, unknown>, ...children: unknown[]) => unknown;
};

const root = new URL('../../', import.meta.url).pathname;
const inkFile = (name: string) => path.join(root, 'node_modules/ink/build', name);
const patches = inkPatches as Patch[];

describe('the bundle patches Ink only as the release it was written for', () => {
	test('package.json pins ink to that release, and it is the one installed', () => {
		const manifest = JSON.parse(readFileSync(path.join(root, 'package.json'), 'utf8')) as {devDependencies: Record<string, string>};
		expect(manifest.devDependencies.ink).toBe(inkVersion);
		expect(() => checkInkVersion()).not.toThrow();
	});

	test('another Ink release stops the build with a message that says what to do', () => {
		expect(() => checkInkVersion('8.0.1')).toThrow(/Ink 8\.0\.1 is installed, but scripts\/ink-patches\.js was written for Ink 8\.0\.0/);
	});

	test("every patch finds its text in the installed Ink's files", () => {
		for (const {file, edits} of patches) {
			const name = ['output.js', 'render-node-to-output.js'].find(candidate => file.test(inkFile(candidate)));
			expect(name).toBeDefined();
			const result = applyEdits(name, readFileSync(inkFile(name!), 'utf8'), edits) as {text?: string; error?: string};
			expect(result.error).toBeUndefined();
			for (const {replace} of edits) {
				expect(result.text).toContain(replace);
			}
		}
	});

	test('a file without the text is an error naming it, not a quiet change', () => {
		const result = applyEdits('output.js', 'export default class Output {}', patches[0]!.edits) as {text?: string; error?: string};
		expect(result.text).toBeUndefined();
		expect(result.error).toMatch(/output\.js no longer has the text scripts\/ink-patches\.js patches/);
	});
});

describe("the patched Ink draws Ink's own frames", () => {
	const folder = mkdtempSync(path.join(tmpdir(), 'podtop-ink-patches-'));
	let plain: Ink;
	let patched: Ink;

	/** Ink (its Output and renderToString) and React in one file, with the patches or without. */
	async function bundle(name: string, plugins: Plugin[]): Promise<Ink> {
		const file = path.join(folder, `${name}.mjs`);
		await build({
			stdin: {
				contents: `export {renderToString, Box, Text} from 'ink'; export {default as Output} from ${JSON.stringify(inkFile('output.js'))}; export {createElement} from 'react';`,
				resolveDir: root,
				loader: 'js',
			},
			outfile: file,
			bundle: true,
			platform: 'node',
			format: 'esm',
			define: {'process.env.NODE_ENV': '"production"'},
			alias: {'react-devtools-core': path.join(root, 'scripts/stubs/react-devtools-core.js'), ws: path.join(root, 'scripts/stubs/ws.js')},
			banner: {js: "import {createRequire as __podtopRequire} from 'node:module'; const require = __podtopRequire(import.meta.url);"},
			plugins,
			logLevel: 'silent',
		});
		return (await import(pathToFileURL(file).href)) as Ink;
	}

	beforeAll(async () => {
		plain = await bundle('plain', []);
		patched = await bundle('patched', [inkPatchPlugin as Plugin]);
	}, 60_000);

	afterAll(() => {
		rmSync(folder, {recursive: true, force: true});
	});

	test('the patched bundle is the patched one', () => {
		expect(readFileSync(path.join(folder, 'patched.mjs'), 'utf8')).toContain('sharedCaches');
		expect(readFileSync(path.join(folder, 'plain.mjs'), 'utf8')).not.toContain('sharedCaches');
	});

	// Text as podtop's frames have it: colours and bold that open and close, wide and zero-width characters, blank lines.
	const pieces = [
		'pod-',
		'RUNNING',
		' 12.5 %',
		'\u001B[31mEXITED\u001B[39m',
		'\u001B[1m\u001B[36mllava\u001B[39m\u001B[22m',
		'漢字',
		'🙂',
		'e\u0301',
		'\u200B',
		' ',
		'│',
		'\n',
		'\u001B[2m…\u001B[22m',
	];

	/** A pseudo-random sequence (the same on every run): a failure can be run again. */
	function randomSource(seed: number) {
		let state = seed;
		return (below: number) => {
			state = (state * 1_103_515_245 + 12_345) % 2_147_483_648;
			return state % below;
		};
	}

	test('random frames, each mostly the last one again (rows kept from frame to frame, caches that outlive a frame), come out the same', () => {
		const random = randomSource(39);
		const texts = Array.from({length: 60}, () => Array.from({length: 1 + random(8)}, () => pieces[random(pieces.length)]).join(''));
		type Operation = {
			readonly kind: number;
			readonly x: number;
			readonly y: number;
			readonly text: string;
			readonly clip: Record<string, number>;
			readonly transform: boolean;
		};
		const operation = (width: number, height: number): Operation => ({
			kind: random(10),
			x: random(width + 4) - 2,
			y: random(height + 2) - 1,
			text: texts[random(texts.length)]!,
			clip: {x1: random(width), x2: random(width + 5), y1: random(height), y2: random(height + 3)},
			transform: random(4) === 0,
		});
		const transform = (line: string, index: number) => `${index}:${line}`;
		let operations: Operation[] = [];
		for (let frame = 0; frame < 400; frame++) {
			// The size holds for 20 frames at a time; each frame changes a few of the last one's writes, or none.
			const width = 20 + 13 * (Math.floor(frame / 20) % 3);
			const height = 3 + 4 * (Math.floor(frame / 40) % 3);
			operations =
				frame % 20 === 0
					? Array.from({length: 25}, () => operation(width, height))
					: operations.map(last => (random(8) === 0 ? operation(width, height) : last));
			const outputs = [new plain.Output({width, height}), new patched.Output({width, height})];
			for (const {kind, x, y, text, clip, transform: transformed} of operations) {
				for (const output of outputs) {
					if (kind === 0) {
						output.clip(clip);
					} else if (kind === 1) {
						output.unclip();
					} else {
						output.write(x, y, text, {transformers: transformed ? [transform] : []});
					}
				}
			}

			expect(outputs[1]!.get()).toEqual(outputs[0]!.get());
		}
	});

	test('whole trees, with wrapping, truncation and hidden overflow, rendered twice, come out the same', () => {
		const tree = ({createElement: h, Box, Text}: Ink, tick: number) =>
			h(
				Box,
				{flexDirection: 'column', width: 50, height: 12, overflow: 'hidden', borderStyle: 'round'},
				h(Text, {color: 'cyan', bold: true}, `Pods (${2000 + tick}) · 漢字 🙂`),
				h(Text, {wrap: 'truncate-end'}, `pod-${tick} RUNNING ${'x'.repeat(80)}`),
				h(Text, {wrap: 'wrap'}, `a long line that wraps ${'word '.repeat(15)}`),
				h(Box, {width: 10, overflow: 'hidden'}, h(Text, {wrap: 'truncate-middle', color: tick % 2 ? 'red' : 'green'}, 'middle truncated text')),
				h(Text, {dimColor: true}, `${tick % 3 === 0 ? 'e\u0301\u200B' : ''}tick ${tick}`),
			);
		for (let tick = 0; tick < 12; tick++) {
			expect(patched.renderToString(tree(patched, tick % 4), {columns: 60})).toBe(plain.renderToString(tree(plain, tick % 4), {columns: 60}));
		}
	});
});
