// Ink's Output and the bundle's stand-in (scripts/stubs/ink-output.js) draw the same frames: random
// frames of writes, clips and transformers, one after another (the stand-in keeps rows across frames).
// eslint-disable-next-line import-x/no-extraneous-dependencies, n/no-extraneous-import
import * as tokenizer from '@alcalzone/ansi-tokenize';
// eslint-disable-next-line import-x/no-extraneous-dependencies, n/no-extraneous-import
import sliceAnsi from 'slice-ansi';
// eslint-disable-next-line import-x/no-extraneous-dependencies, n/no-extraneous-import
import stringWidth from 'string-width';
import {describe, expect, test} from 'vitest';
import {characterWidthLimit, createOutputClass} from '../../scripts/stubs/ink-output.js';
import {fastAnsiTokenize, withNarrowFastPath} from '../../scripts/stubs/text-paths.js';
import {seededRandom} from '../helpers/seeded-random.js';
import {sgrCodes} from '../helpers/sgr-codes.js';

type Transformer = (line: string, index: number) => string;
type Clip = {x1?: number; x2?: number; y1?: number; y2?: number};
type OutputLike = {
	write(x: number, y: number, text: string, options: {transformers: Transformer[]}): void;
	clip(clip: Clip): void;
	unclip(): void;
	get(): {output: string; height: number};
};
type OutputClass = new (options: {width: number; height: number}) => OutputLike;

const inkOutput = (await import(new URL('../../node_modules/ink/build/output.js', import.meta.url).href)) as {default: OutputClass};

const pieces = ['a', 'b', 'z', ' ', '─', '█', '▁', '●', '·', '漢', '😀', '⚠️', 'e\u0301', ...sgrCodes];
/** What podtop's rows are made of: narrow characters and plain SGR codes (drawn by the bundle without an object per character). */
const narrowPieces = ['a', 'b', 'z', ' ', '─', '█', '▁', '●', '·', '\u00A0', ...sgrCodes.filter(code => /^\u001B\[\d*m$/.test(code))];
const transformers: Transformer[] = [(line, index) => `${index}${line}`, line => `\u001B[2m${line}\u001B[22m`, line => line.toUpperCase()];

type Operation =
	| {readonly kind: 'write'; readonly x: number; readonly y: number; readonly text: string; readonly transformers: Transformer[]}
	| {readonly kind: 'clip'; readonly clip: Clip}
	| {readonly kind: 'unclip'};

function randomText(next: () => number, from: readonly string[] = pieces): string {
	const lines = 1 + Math.floor(next() * 3);
	return Array.from({length: lines}, () => Array.from({length: Math.floor(next() * 30)}, () => from[Math.floor(next() * from.length)]!).join('')).join('\n');
}

function randomOperations(next: () => number, width: number, height: number, from: readonly string[] = pieces): Operation[] {
	const operations: Operation[] = [];
	let open = 0;
	for (let count = Math.floor(next() * 25); count > 0; count--) {
		const roll = next();
		if (roll < 0.1) {
			const clip: Clip = next() < 0.7 ? {x1: Math.floor(next() * width), x2: Math.floor(next() * width) + 2} : {};
			if (next() < 0.7) {
				clip.y1 = Math.floor(next() * height);
				clip.y2 = clip.y1 + Math.floor(next() * height);
			}

			operations.push({kind: 'clip', clip});
			open++;
		} else if (roll < 0.15 && open > 0) {
			operations.push({kind: 'unclip'});
			open--;
		} else {
			const chosen = next() < 0.15 ? [transformers[Math.floor(next() * transformers.length)]!] : [];
			operations.push({
				kind: 'write',
				x: Math.floor(next() * (width + 4)) - 2,
				y: Math.floor(next() * (height + 4)) - 2,
				text: next() < 0.05 ? '' : randomText(next, from),
				transformers: chosen,
			});
		}
	}

	return operations;
}

function draw(Output: OutputClass, width: number, height: number, operations: readonly Operation[]) {
	const output = new Output({width, height});
	for (const operation of operations) {
		if (operation.kind === 'write') {
			output.write(operation.x, operation.y, operation.text, {transformers: operation.transformers});
		} else if (operation.kind === 'clip') {
			output.clip(operation.clip);
		} else {
			output.unclip();
		}
	}

	return output.get();
}

const fast = fastAnsiTokenize(tokenizer);
const standIns: Array<[string, OutputClass]> = [
	['over the packages', createOutputClass({sliceAnsi, stringWidth, ...tokenizer}) as OutputClass],
	['over the bundle’s text paths', createOutputClass({sliceAnsi, stringWidth: withNarrowFastPath(stringWidth), ...fast}) as OutputClass],
];

/**
Random frames (`count`), each the last one with some writes' texts replaced (a share of `changed`), a new frame of
operations every `newEvery`: each frame's size, operations and whether it kept the last one's writes.
*/
function* randomFrames(seed: number, {count, newEvery, changed, from = pieces}: {count: number; newEvery: number; changed: number; from?: readonly string[]}) {
	const next = seededRandom(seed);
	let operations: Operation[] = [];
	let width = 30;
	let height = 8;
	for (let frame = 0; frame < count; frame++) {
		const kept = frame % newEvery !== 0;
		if (kept) {
			// Most of the last frame kept (rows drawn again from the stand-in's memory), a few writes replaced.
			operations = operations.map(operation => (operation.kind === 'write' && next() < changed ? {...operation, text: randomText(next, from)} : operation));
		} else {
			width = 10 + Math.floor(next() * 40);
			height = 1 + Math.floor(next() * 12);
			operations = randomOperations(next, width, height, from);
		}

		yield {frame, width, height, operations, kept};
	}
}

describe('the bundle’s Output draws what Ink’s does', () => {
	for (const [name, StandIn] of standIns) {
		test(`${name}: 600 random frames, each the last one with some writes changed`, () => {
			let reused = 0;
			for (const {frame, width, height, operations, kept} of randomFrames(7, {count: 600, newEvery: 50, changed: 0.2})) {
				const expected = draw(inkOutput.default, width, height, operations);
				const actual = draw(StandIn, width, height, operations);
				expect(actual, `frame ${frame}: ${JSON.stringify(operations)}`).toEqual(expected);
				reused += operations.length > 0 && kept ? 1 : 0;
			}

			expect(reused).toBeGreaterThan(400);
		});
	}

	test('rows of narrow text with plain codes: 600 random frames drawn without an object per character, as Ink draws them', () => {
		let narrowRows = 0;
		let otherRows = 0;
		const counted = createOutputClass({
			sliceAnsi,
			stringWidth: withNarrowFastPath(stringWidth),
			...fast,
			drawNarrowRow(width: number, writes: Array<number | string>) {
				const row = fast.drawNarrowRow(width, writes);
				narrowRows += row === undefined ? 0 : 1;
				otherRows += row === undefined ? 1 : 0;
				return row;
			},
		}) as OutputClass;
		for (const {frame, width, height, operations} of randomFrames(11, {count: 600, newEvery: 20, changed: 0.3, from: narrowPieces})) {
			expect(draw(counted, width, height, operations), `frame ${frame}: ${JSON.stringify(operations)}`).toEqual(
				draw(inkOutput.default, width, height, operations),
			);
		}

		// Both ways are compared: a row with a write past its edges (many here: writes start from 2 columns before the row to
		// 2 after, up to 30 characters long) is drawn as Ink does (590 narrow rows and 980 others with this seed).
		expect(narrowRows).toBeGreaterThan(400);
		expect(otherRows).toBeGreaterThan(400);
	});

	test('a frame of another width draws every row again', () => {
		const [, StandIn] = standIns[0]!;
		const operations: Operation[] = [{kind: 'write', x: 0, y: 0, text: 'abc\u001B[7mdef\u001B[27m', transformers: []}];
		expect(draw(StandIn, 20, 2, operations)).toEqual(draw(inkOutput.default, 20, 2, operations));
		expect(draw(StandIn, 4, 2, operations)).toEqual(draw(inkOutput.default, 4, 2, operations));
		expect(draw(StandIn, 20, 2, operations).output).toBe('abc\u001B[7mdef\u001B[27m\n');
	});

	test('what it keeps between frames is bounded: the widths of characters, at most characterWidthLimit', () => {
		const StandIn = createOutputClass({sliceAnsi, stringWidth, ...tokenizer}) as OutputClass & {cached: () => number};
		for (let frame = 0; frame < 100; frame++) {
			const operations: Operation[] = Array.from({length: 3}, (_, y) => ({kind: 'write', x: 0, y, text: `frame ${frame} row ${y}`, transformers: []}));
			expect(draw(StandIn, 20, 3, operations).output).toBe(`frame ${frame} row 0\nframe ${frame} row 1\nframe ${frame} row 2`);
		}

		// Each character drawn once: the letters of "frame" and "row", the digits and the space.
		expect(StandIn.cached()).toBe(new Set('frame row 0123456789').size);
		const text = Array.from({length: characterWidthLimit + 10}, (_, index) => String.fromCodePoint(0x4e_00 + index)).join('');
		expect(draw(StandIn, 2 * text.length, 1, [{kind: 'write', x: 0, y: 0, text, transformers: []}]).output).toBe(text);
		expect(StandIn.cached()).toBeLessThanOrEqual(characterWidthLimit);
	});
});
