import {expect, test} from 'vitest';
import type {SessionLine} from '../../source/model/log-session.js';
import {logLayout} from '../../source/rows/log-view-model.js';
import {selectLogLines} from '../../source/rows/log-selection.js';
import {logWindow} from '../../source/rows/log-window.js';

const lineOf = (seq: number): SessionLine => ({
	id: `2026-12-01T12:00:00Z/${String(seq).padStart(12, '0')}`,
	ts: seq,
	source: 'container',
	line: `line ${seq}`,
	origin: 'w1',
	seq,
});

test('a frame lays out only the lines that arrived: those still on screen are the same shown lines, their rows kept', () => {
	const buffer = Array.from({length: 5000}, (_, index) => lineOf(index + 1));
	const layout = logLayout({filter: '', wrap: true, timestamps: false, json: false}, {tail: 200}, {kind: 'worker', endpointId: 'e', workerId: 'w1'}, 120, 0);
	const first = logWindow(selectLogLines(buffer, '', 0).shown, undefined, 38, layout);
	// The next frame: one line more, the oldest dropped (a full ring).
	const next = [...buffer.slice(1), lineOf(5001)];
	const second = logWindow(selectLogLines(next, '', 0).shown, undefined, 38, layout);
	// The 37 rows that stayed on screen moved up one, each the same rows as laid out the frame before.
	expect(second.rows.slice(0, 37)).toEqual(first.rows.slice(1));
	for (const [index, row] of second.rows.slice(0, 37).entries()) {
		expect(row).toBe(first.rows[index + 1]);
	}

	// Filtered, with context: the same, and the lines that matched before are not tested again.
	const filtered = selectLogLines(buffer, 'line 49', 2);
	const again = selectLogLines(next, 'line 49', 2);
	expect(again.matches).toBe(filtered.matches);
	// Line 5001 is new: the context after line 4999.
	const kept = again.shown.filter(shown => shown.kind !== 'gap' && shown.seq <= 5000);
	expect(kept.length).toBeGreaterThan(100);
	expect(kept.every(shown => filtered.shown.includes(shown))).toBe(true);
	expect(again.shown.at(-1)).toMatchObject({kind: 'context', seq: 5001});
});

test('context lines around matches, as grep -C, a gap between runs that do not touch', () => {
	const buffer = Array.from({length: 20}, (_, index) => lineOf(index + 1));
	const {shown, matches} = selectLogLines(buffer, '^line (5|6|15)$', 2);
	expect(matches).toBe(3);
	expect(shown.map(each => (each.kind === 'gap' ? '--' : `${each.kind[0]}${each.seq}`))).toEqual([
		'c3',
		'c4',
		'm5',
		'm6',
		'c7',
		'c8',
		'--',
		'c13',
		'c14',
		'm15',
		'c16',
		'c17',
	]);
});
