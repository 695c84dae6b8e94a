import {describe, expect, test} from 'vitest';
import {deepEqual} from '../../source/lib/deep-equal.js';

describe('deepEqual', () => {
	test('records equal field by field, nested and in arrays', () => {
		const pod = () => ({id: 'p1', runtime: {gpus: [{gpuUtilPercent: 40}, {gpuUtilPercent: 41}], container: {cpuPercent: 3}}, name: 'a', machine: null});
		expect(deepEqual(pod(), pod())).toBe(true);
		expect(deepEqual({a: 1, b: 2}, {b: 2, a: 1})).toBe(true);
		expect(deepEqual([1, [2, {c: 3}]], [1, [2, {c: 3}]])).toBe(true);
	});

	test('any difference in a value, a key or a shape is a difference', () => {
		expect(deepEqual({runtime: {gpus: [{u: 40}]}}, {runtime: {gpus: [{u: 41}]}})).toBe(false);
		expect(deepEqual({a: 1, b: 2}, {a: 1, c: 2})).toBe(false);
		expect(deepEqual({a: 1}, {a: 1, b: 2})).toBe(false);
		expect(deepEqual({a: 1, b: 2}, {a: 1})).toBe(false);
		expect(deepEqual({a: undefined}, {})).toBe(false);
		expect(deepEqual({}, {a: undefined})).toBe(false);
		expect(deepEqual([1, 2], [1, 2, 3])).toBe(false);
		expect(deepEqual([1], {0: 1})).toBe(false);
		expect(deepEqual({0: 1}, [1])).toBe(false);
		expect(deepEqual(null, {})).toBe(false);
		expect(deepEqual(Number.NaN, Number.NaN)).toBe(true);
	});

	test('keys a record inherits are not its own', () => {
		const inherited = Object.create({extra: 1}) as Record<string, unknown>;
		inherited.a = 1;
		expect(deepEqual(inherited, {a: 1})).toBe(true);
		expect(deepEqual({a: 1}, inherited)).toBe(true);
	});
});
