import {describe, expect, test} from 'vitest';
import {createSampleRows, releaseRows, type RowLists, type Rows} from '../../source/history/sample-rows.js';

const rowsOf = (samples: Map<string | null, Rows>) => [...samples].map(([state, {list, count}]) => [state, list.slice(0, count)]);

describe("a batch's samples by state", () => {
	test('each state holds its rows in order; the next batch fills the same lists from their start, and a state with no rows in it is not in it', () => {
		const lists: RowLists = new Map();
		const first = createSampleRows(lists);
		first.add(1, 'RUNNING', '[1]');
		first.add('pod\0new', 'EXITED', '[2]');
		first.add(3, 'EXITED', '[3]');
		first.add(4, undefined, '[4]');
		const samples = new Map<string | null, Rows>();
		first.finish(samples);
		expect(rowsOf(samples)).toEqual([
			['RUNNING', [1, '[1]']],
			['EXITED', ['pod\0new', '[2]', 3, '[3]']],
			[null, [4, '[4]']],
		]);
		const exited = samples.get('EXITED')!.list;

		const second = createSampleRows(lists);
		second.add(5, 'EXITED', '[5]');
		const next = new Map<string | null, Rows>();
		second.finish(next);
		expect(rowsOf(next)).toEqual([['EXITED', [5, '[5]']]]);
		// The same list, its rows past the batch's let go (no text of the last batch held).
		expect(next.get('EXITED')!.list).toBe(exited);
		expect(exited).toEqual([5, '[5]', 0, 0]);
		expect(lists.get('RUNNING')).toEqual({list: [0, 0], count: 0});
	});

	test('rows released once written hold no text and count none; the list keeps its length', () => {
		const lists: RowLists = new Map();
		const rows = createSampleRows(lists);
		rows.add(1, 'RUNNING', '[1]');
		rows.add(2, 'RUNNING', '[2]');
		const running = lists.get('RUNNING')!;
		releaseRows(running);
		expect(running).toEqual({list: [0, 0, 0, 0], count: 0});
	});
});
