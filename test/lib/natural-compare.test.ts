import {expect, test} from 'vitest';
import {naturalCompare} from '../../source/lib/natural-compare.js';
import {seededRandom} from '../helpers/seeded-random.js';

const collator = new Intl.Collator(undefined, {numeric: true, sensitivity: 'base'});

const printable = Array.from({length: 95}, (_, index) => String.fromCodePoint(32 + index));
/** Names as they come: mostly letters, digits (with leading zeros) and dashes, some other printable characters. */
const pieces = [
	...printable,
	'a',
	'b',
	'A',
	'B',
	'pod-',
	'exp_',
	'0',
	'00',
	'1',
	'9',
	'10',
	'007',
	'-',
	'_',
	'.',
	' ',
	'99999999999999999999',
	'12345678901234567890123',
];

function randomName(next: () => number): string {
	let name = '';
	for (let count = Math.floor(next() * 8); count > 0; count--) {
		name += pieces[Math.floor(next() * pieces.length)];
	}

	return name;
}

test('every pair of printable ASCII characters is ordered as the Collator orders it', () => {
	for (const left of printable) {
		for (const right of printable) {
			expect(naturalCompare(left, right), `${left} ${right}`).toBe(collator.compare(left, right));
		}
	}
});

test('50,000 random pairs of names are ordered as the Collator orders them', () => {
	const next = seededRandom(11);
	for (let run = 0; run < 50_000; run++) {
		const left = randomName(next);
		// Often a near twin: the same name with one piece changed, so the walk goes deep.
		const right = next() < 0.5 ? randomName(next) : left.slice(0, Math.floor(next() * left.length)) + randomName(next);
		expect(naturalCompare(left, right), JSON.stringify([left, right])).toBe(collator.compare(left, right));
	}
});

test('natural order, case ignored; other characters go to the Collator', () => {
	expect(['exp-10', 'exp-2', 'Exp-1', 'exp-100', 'exp-02'].sort(naturalCompare)).toEqual(['Exp-1', 'exp-2', 'exp-02', 'exp-10', 'exp-100']);
	expect(naturalCompare('pod-a', 'POD-A')).toBe(0);
	expect(naturalCompare('été', 'ete')).toBe(collator.compare('été', 'ete'));
	expect(naturalCompare('zürich-2', 'zurich-10')).toBe(collator.compare('zürich-2', 'zurich-10'));
	expect(naturalCompare('a\tb', 'a b')).toBe(collator.compare('a\tb', 'a b'));
});
