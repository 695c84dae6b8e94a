import {describe, expect, test} from 'vitest';
import {sameExcept} from '../../source/history/unchanged.js';

const omit = ['runtime', 'costPerHr'];

describe('records equal but for the keys left out', () => {
	test('equal values, the same parts or equal ones, whatever the left-out keys say (or whether they are there)', () => {
		const machine = {gpu: 'H100', location: 'EU'};
		expect(sameExcept({id: 'p', machine, runtime: {up: 1}, costPerHr: 1}, {id: 'p', machine, runtime: {up: 2}, costPerHr: 2}, omit)).toBe(true);
		expect(sameExcept({id: 'p', machine}, {id: 'p', machine: {...machine}}, omit)).toBe(true);
		expect(sameExcept({id: 'p', runtime: null}, {id: 'p'}, omit)).toBe(true);
		expect(sameExcept({id: 'p'}, {id: 'p', costPerHr: 3}, omit)).toBe(true);
		expect(sameExcept({id: 'p', runtime: undefined}, {id: 'p'}, omit)).toBe(true);
	});

	test('a key kept that differs, is missing on either side, or is undefined on one side and absent on the other', () => {
		expect(sameExcept({id: 'p', name: 'a'}, {id: 'p', name: 'b'}, omit)).toBe(false);
		expect(sameExcept({id: 'p', machine: {gpu: 'H100'}}, {id: 'p', machine: {gpu: 'A100'}}, omit)).toBe(false);
		expect(sameExcept({id: 'p', name: 'a'}, {id: 'p'}, omit)).toBe(false);
		expect(sameExcept({id: 'p'}, {id: 'p', name: 'a'}, omit)).toBe(false);
		expect(sameExcept({id: 'p', name: undefined}, {id: 'p'}, omit)).toBe(false);
		expect(sameExcept({id: 'p', costPerHr: 1}, {id: 'p', name: 'a'}, omit)).toBe(false);
	});
});
