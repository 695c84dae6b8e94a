import {describe, expect, test} from 'vitest';
import {deepEqual} from '../../source/lib/deep-equal.js';
import {shareEqual} from '../../source/lib/share-equal.js';

describe('shareEqual', () => {
	test('says what deepEqual says, for equal and unequal data alike', () => {
		const pairs: Array<[unknown, unknown]> = [
			[
				{a: 1, b: [1, {c: 2}]},
				{b: [1, {c: 2}], a: 1},
			],
			[{runtime: {gpus: [{u: 40}]}}, {runtime: {gpus: [{u: 41}]}}],
			[
				{a: 1, b: 2},
				{a: 1, c: 2},
			],
			[{a: 1}, {a: 1, b: 2}],
			[{a: 1, b: 2}, {a: 1}],
			[{a: undefined}, {}],
			[{}, {a: undefined}],
			[
				[1, 2],
				[1, 2, 3],
			],
			[
				[1, 2, 3],
				[1, 2],
			],
			[[1], {0: 1}],
			[{0: 1}, [1]],
			[null, {}],
			[{}, null],
			[Number.NaN, Number.NaN],
			['x', 'x'],
			[1, '1'],
		];
		for (const [previous, next] of pairs) {
			expect(shareEqual(structuredClone(previous), structuredClone(next)), JSON.stringify([previous, next])).toBe(deepEqual(previous, next));
		}
	});

	test('what did not change becomes the previous object; what changed stays new, its values as parsed', () => {
		const previous = {
			id: 'p',
			machine: {name: 'H100'},
			gpus: [
				{id: 'g0', util: 10},
				{id: 'g1', util: 20},
			],
			tags: ['a', 'b'],
			gone: {x: 1},
		};
		const next = {
			id: 'p',
			machine: {name: 'H100'},
			gpus: [
				{id: 'g0', util: 11},
				{id: 'g1', util: 20},
			],
			tags: ['a', 'b'],
			extra: {y: 2},
		};
		const expected = structuredClone(next);
		expect(shareEqual(previous, next)).toBe(false);
		expect(next).toEqual(expected);
		expect(next.machine).toBe(previous.machine);
		expect(next.tags).toBe(previous.tags);
		expect(next.gpus[1]).toBe(previous.gpus[1]);
		expect(next.gpus[0]).not.toBe(previous.gpus[0]);
		expect(next.gpus).not.toBe(previous.gpus);
		expect(next.extra).toEqual({y: 2});
	});

	test('frozen data is compared and left as it is', () => {
		const previous = {machine: {name: 'H100'}, util: 1};
		const next = Object.freeze({machine: {name: 'H100'}, util: 2});
		expect(shareEqual(previous, next)).toBe(false);
		expect(next.machine).not.toBe(previous.machine);
		expect(shareEqual(previous, Object.freeze({machine: {name: 'H100'}, util: 1}))).toBe(true);
	});
});
