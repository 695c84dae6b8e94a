import {expect, test} from 'vitest';
import type {SortableRow} from '../../source/rows/row.js';
import {filterAndSort, sortShown, type LastShown} from '../../source/rows/sort-rows.js';
import {seededRandom} from '../helpers/seeded-random.js';

const row = (key: string, name: string, rank: number | undefined, util: number): SortableRow => ({
	key,
	cells: [name],
	sortValues: [name, rank, util],
	searchText: `${key} ${name}`,
});

test("sorted in the last poll's order or from scratch, the order is the same; a changed sort or filter is sorted anew", () => {
	const next = seededRandom(5);
	const names = ['exp-2', 'exp-10', 'Exp-3', 'trainer', 'box', 'box'];
	let rows = Array.from({length: 60}, (_, index) =>
		row(`p${index}`, names[index % names.length]!, index % 4 === 0 ? undefined : index % 3, Math.floor(next() * 100)),
	);
	let last: LastShown<SortableRow> | undefined;
	for (let poll = 0; poll < 200; poll++) {
		// Each poll a few rows change rank or utilisation, now and then one goes or comes back; the list comes in any order.
		rows = rows.map(each => (next() < 0.05 ? row(each.key, String(each.sortValues[0]), Math.floor(next() * 3), Math.floor(next() * 100)) : each));
		const polled = rows.filter(() => next() > 0.01).sort(() => next() - 0.5);
		for (const sort of [
			{column: 1, descending: false},
			{column: 2, descending: true},
			{column: 0, descending: false},
		]) {
			const filter = poll % 7 === 0 ? 'exp' : '';
			const fromScratch = filterAndSort(polled, filter, sort).map(each => each.key);
			const withLast = filterAndSort(polled, filter, sort, last);
			expect(
				withLast.map(each => each.key),
				`poll ${poll}`,
			).toEqual(fromScratch);
			last = {rows: withLast, filter, sort};
		}
	}
});

test('with the same sort from poll to poll, only the rows that changed are compared, and the order is still what a sort gives', () => {
	const next = seededRandom(11);
	const names = ['exp-2', 'exp-10', 'Exp-3', 'trainer', 'box', 'box'];
	let rows = Array.from({length: 80}, (_, index) =>
		row(`p${index}`, names[index % names.length]!, index % 4 === 0 ? undefined : index % 3, Math.floor(next() * 100)),
	);
	for (const sort of [
		{column: 2, descending: true},
		{column: 1, descending: false},
	]) {
		let last: LastShown<SortableRow> | undefined;
		for (let poll = 0; poll < 300; poll++) {
			// A few rows on screen read again each poll (new objects, sometimes new values); the rest are the rows they were.
			rows = rows.map(each =>
				next() < 0.04
					? row(each.key, String(each.sortValues[0]), Math.floor(next() * 3), next() < 0.5 ? Number(each.sortValues[2]) : Math.floor(next() * 100))
					: each,
			);
			const withLast = filterAndSort(rows, '', sort, last);
			expect(
				withLast.map(each => each.key),
				`poll ${poll}`,
			).toEqual(filterAndSort(rows, '', sort).map(each => each.key));
			last = {rows: withLast, filter: '', sort};
		}
	}
});

test('rows made anew that come with the same keys in the same order are put in the last order, and the order is still what a sort gives', () => {
	const next = seededRandom(17);
	const names = ['exp-2', 'exp-10', 'Exp-3', 'trainer', 'box', 'box'];
	let rows = Array.from({length: 80}, (_, index) =>
		row(`p${index}`, names[index % names.length]!, index % 4 === 0 ? undefined : index % 3, Math.floor(next() * 100)),
	);
	let last: LastShown<SortableRow> | undefined;
	let keptInPlace = 0;
	for (let step = 0; step < 300; step++) {
		// A time cursor's step: every row made anew, most with the values they had; now and then the list comes in another order or one goes.
		rows = rows.map(each =>
			row(each.key, String(each.sortValues[0]), next() < 0.005 ? Math.floor(next() * 3) : (each.sortValues[1] as number | undefined), Math.floor(next() * 100)),
		);
		const came = step % 50 === 49 ? [...rows].sort(() => next() - 0.5) : step % 60 === 59 ? rows.slice(1) : rows;
		const sort = step % 100 < 50 ? {column: 1, descending: false} : {column: 2, descending: true};
		const filter = step % 90 < 10 ? 'exp' : '';
		const shown = sortShown(came, filter, sort, last);
		expect(
			shown.rows.map(each => each.key),
			`step ${step}`,
		).toEqual(filterAndSort(came, filter, sort).map(each => each.key));
		keptInPlace += shown.picks === last?.picks ? 1 : 0;
		last = shown;
	}

	// Most steps kept the last places (the same rank for most rows; sorted by utilisation, every step sorts).
	expect(keptInPlace).toBeGreaterThan(50);
});
