import {expect, test} from 'vitest';
import type {PodRecord} from '../../source/model/pod.js';
import {asciiGlyphs, unicodeGlyphs} from '../../source/format/glyphs.js';
import {podColumns, podRows} from '../../source/rows/pod-rows.js';
import {contentWidths} from '../../source/rows/row.js';
import type {PodState} from '../../source/store/types.js';
import {seededRandom} from '../helpers/seeded-random.js';

function randomPod(next: () => number, index: number): PodState {
	const pick = <T>(values: readonly T[]): T => values[Math.floor(next() * values.length)]!;
	const gpuCount = pick([0, 1, 2, 8]);
	const running = next() < 0.7;
	const record: PodRecord = {
		id: `pod-${index}`,
		name: pick(['trainer', '', 'a\u001B[31mred', '名前', 'x'.repeat(40)]),
		desiredStatus: pick(['RUNNING', 'EXITED', 'TERMINATED', 'CREATED', undefined]),
		costPerHr: pick([null, undefined, 0.2, 3.99, 12.5]),
		gpuCount,
		machine: pick([null, {gpuDisplayName: 'H100 SXM'}, {gpuDisplayName: 'RTX 4090'}]),
		runtime: running
			? {
					uptimeInSeconds: pick([null, 5, 600, 7200, 400_000]),
					// Percentages whose rounding adds a digit, negative, huge or not a number: counted as their text has them.
					gpus: Array.from({length: gpuCount}, () => ({
						id: 'g',
						gpuUtilPercent: pick([null, 0, 37, 100, 9.5, -4]),
						memoryUtilPercent: pick([null, 12.5, 99, 99.5]),
					})),
					container: pick([
						null,
						{cpuPercent: 3, memoryPercent: 48.2},
						{cpuPercent: null, memoryPercent: null},
						{cpuPercent: -0.4, memoryPercent: -12},
						{cpuPercent: 1e22, memoryPercent: Number.NaN},
					]),
				}
			: null,
	};
	return {record, utilHistory: Array.from({length: Math.floor(next() * 14)}, () => Math.floor(next() * 100))};
}

test("each Pods row widens the columns to its cells' lengths as its cells have them, wide and compact, in both glyph sets", () => {
	const next = seededRandom(3);
	const pods = Array.from({length: 400}, (_, index) => randomPod(next, index));
	for (const wide of [true, false]) {
		for (const glyphs of [unicodeGlyphs, asciiGlyphs]) {
			const columns = wide ? podColumns.wide : podColumns.compact;
			for (const row of podRows(pods, wide, glyphs)) {
				const widths = columns.map(() => 0);
				row.widen!(widths);
				expect(widths, row.key).toEqual(row.cells.map(cell => cell.length));
			}

			const rows = podRows(pods, wide, glyphs);
			expect(contentWidths(columns, rows)).toEqual(
				contentWidths(
					columns,
					rows.map(row => ({key: row.key, cells: row.cells})),
				),
			);
		}
	}
});

test('the GPU cell says the count and the type (made safe for the terminal) of each pod, pods alike sharing it; a CPU pod says so', () => {
	const pod = (id: string, gpuCount: number, gpuDisplayName: string | undefined): PodState => ({
		record: {id, name: id, desiredStatus: 'EXITED', gpuCount, machine: gpuDisplayName === undefined ? null : {gpuDisplayName}},
		utilHistory: [],
	});
	const pods = [
		pod('a', 2, 'H100 SXM'),
		pod('b', 2, 'H100 SXM'),
		pod('c', 8, 'H100 SXM'),
		pod('d', 1, 'RTX\u001B[31m 4090'),
		pod('e', 0, 'H100 SXM'),
		pod('f', 1, undefined),
	];
	const gpuCells = podRows(pods, true, unicodeGlyphs).map(row => row.cells[1]);
	expect(gpuCells).toEqual(['2× H100 SXM', '2× H100 SXM', '8× H100 SXM', '1× RTX␛[31m 4090', 'CPU only', '1× ?']);
});
