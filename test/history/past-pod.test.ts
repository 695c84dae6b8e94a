import {expect, test} from 'vitest';
import type {PodRecord} from '../../source/model/pod.js';
import {asciiGlyphs, unicodeGlyphs} from '../../source/format/glyphs.js';
import {podAt} from '../../source/history/fields.js';
import {PastPod} from '../../source/history/past-pod.js';
import {podColumns, podRows} from '../../source/rows/pod-rows.js';
import {glanceOf, podCostFields, podCostTotals, podGlance} from '../../source/store/pod-figures.js';
import type {PodState} from '../../source/store/types.js';
import {seededRandom} from '../helpers/seeded-random.js';

type Case = {stored: PodRecord; state: string | null; values: Array<number | null>};

/** The moment the past pods are of. */
const moment = Date.UTC(2026, 10, 27, 3, 12, 40);

/** A stored record and a sample as a history file may hold them: up or not, GPUs or none, a pair cut short, nulls, an unknown status. */
function randomCase(next: () => number, index: number): Case {
	const pick = <T>(values: readonly T[]): T => values[Math.floor(next() * values.length)]!;
	const stored: PodRecord = {
		id: `pod-${index}`,
		name: pick(['trainer', '', null, undefined, 'a\u001B[31mred', '名前']),
		imageName: 'runpod/pytorch',
		volumeInGb: pick([undefined, null, 0, 20, 200]),
		gpuCount: pick([undefined, 0, 1, 2]),
		machine: pick([undefined, null, {gpuDisplayName: 'H100 SXM', location: 'EU'}, {gpuDisplayName: null}]),
		// The start the recorder keeps of a running pod (an hour and two minutes before the moment), or none.
		...(next() < 0.5 ? {startedAt: moment - 3_723_000} : {}),
	};
	const gpus = pick([0, 1, 2, 8]);
	const pairs = Array.from({length: 2 * gpus}, () => pick([null, 0, 37, 100, 9.5, 12.5, 99.5]));
	const values = [
		pick([null, 0, 0.34, 3.99]),
		pick([null, 0, 1, 2, 8]),
		pick([null, 0, 1]),
		pick([null, 3, 48.2, -0.4]),
		pick([null, 12, 99.5]),
		// Now and then the last GPU's memory left out (an odd count).
		...(next() < 0.2 ? pairs.slice(0, -1) : pairs),
	];
	return {stored, state: pick([null, 'RUNNING', 'EXITED', 'TERMINATED', 'CREATED']), values: next() < 0.1 ? values.slice(0, 3) : values};
}

const cases = (count: number) => {
	const next = seededRandom(23);
	return Array.from({length: count}, (_, index) => randomCase(next, index));
};

test("a past pod's glance, told from its sample, is its record's; its record is the one podAt makes, made once, and JSON says it", () => {
	for (const {stored, state, values} of cases(600)) {
		const pod = new PastPod(stored, state, values, moment);
		const record = podAt(stored, {state: state ?? undefined, values}, moment);
		expect(pod.glance(), JSON.stringify({stored, state, values})).toEqual(glanceOf(record));
		expect(podGlance(pod)).toEqual(glanceOf(record));
		expect(pod.record).toEqual(record);
		expect(pod.record).toBe(pod.record);
		expect(JSON.stringify(pod)).toBe(JSON.stringify({record, utilHistory: []}));
	}
});

test("the Pods pane's rows and cost totals of past pods are those of the same pods with their records made", () => {
	const past = cases(600).map(({stored, state, values}) => new PastPod(stored, state, values, moment));
	const made: PodState[] = past.map(pod => ({record: podAt(pod.record, undefined), utilHistory: []}));
	for (const wide of [true, false]) {
		for (const glyphs of [unicodeGlyphs, asciiGlyphs]) {
			const columns = wide ? podColumns.wide : podColumns.compact;
			const fromPast = podRows(past, wide, glyphs);
			const fromRecords = podRows(made, wide, glyphs);
			for (const [index, row] of fromPast.entries()) {
				const other = fromRecords[index]!;
				expect([row.key, row.sortValues, row.tone, row.dim, row.cells, row.searchText]).toEqual([
					other.key,
					other.sortValues,
					other.tone,
					other.dim,
					other.cells,
					other.searchText,
				]);
				const widths = columns.map(() => 0);
				row.widen!(widths);
				expect(widths).toEqual(row.cells.map(cell => cell.length));
			}
		}
	}

	expect(podCostTotals(past.map(pod => podCostFields(pod)))).toEqual(podCostTotals(made.map(pod => pod.record)));
	// A live pod's cost is its record's, as it was.
	expect(podCostFields(made[0]!)).toBe(made[0]!.record);
});

test("a running pod's uptime at a moment is the moment less the start its record keeps; the record reads as the service's (no start in it)", () => {
	const kept: PodRecord & {startedAt: number} = {id: 'p', name: 'trainer', startedAt: moment - 3_723_000};
	const stored: PodRecord = kept;
	const up = [3.99, 1, 1, 20, 30, 90, 80];
	const pod = new PastPod(stored, 'RUNNING', up, moment);
	expect(pod.record.runtime?.uptimeInSeconds).toBe(3723);
	expect(pod.glance().uptimeInSeconds).toBe(3723);
	expect(JSON.stringify(pod.record)).not.toContain('startedAt');
	expect(JSON.stringify(podAt(stored, undefined))).not.toContain('startedAt');
	// The same sample a minute later is another row (its uptime moved); a stopped pod's is the same.
	expect(pod.madeOf(stored, 'RUNNING', up, moment + 60_000)).toBe(false);
	expect(pod.madeOf(stored, 'RUNNING', up, moment)).toBe(true);
	const stopped = new PastPod(stored, 'EXITED', [0, 1, 0], moment);
	expect(stopped.glance().uptimeInSeconds).toBeUndefined();
	expect(stopped.madeOf(stored, 'EXITED', [0, 1, 0], moment + 60_000)).toBe(true);
	// A record kept before the start was: no uptime, as before.
	expect(new PastPod({id: 'q', name: 'old'}, 'RUNNING', up, moment).record.runtime?.uptimeInSeconds).toBeNull();
});
