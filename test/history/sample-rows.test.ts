import {describe, expect, test} from 'vitest';
import {createSampleRows, type RowSizes, type Rows} from '../../source/history/sample-rows.js';

describe("a batch's samples by state", () => {
	test('each state holds its rows in order, cut to them whether its list was made larger or smaller; the sizes kept are this batch’s only', () => {
		const sizes: RowSizes = new Map([
			['RUNNING', 3],
			['EXITED', 1],
			['gone', 5],
		]);
		const first = createSampleRows(sizes);
		first.add(1, 'RUNNING', '[1]');
		first.add('pod\0new', 'EXITED', '[2]');
		first.add(3, 'EXITED', '[3]');
		first.add(4, undefined, '[4]');
		const samples = new Map<string | null, Rows>();
		first.finish(samples);
		expect([...samples]).toEqual([
			['RUNNING', [1, '[1]']],
			['EXITED', ['pod\0new', '[2]', 3, '[3]']],
			[null, [4, '[4]']],
		]);
		expect([...sizes]).toEqual([
			['RUNNING', 1],
			['EXITED', 2],
			[null, 1],
		]);

		const second = createSampleRows(sizes);
		second.add(5, 'EXITED', '[5]');
		const next = new Map<string | null, Rows>();
		second.finish(next);
		expect([...next]).toEqual([['EXITED', [5, '[5]']]]);
		expect([...sizes]).toEqual([['EXITED', 1]]);
	});
});
