import {expect, test} from 'vitest';
import {unicodeGlyphs} from '../../source/format/glyphs.js';
import {createRowSelectors} from '../../source/rows/visible-rows.js';
import {createPodtopStore} from '../../source/store/create-store.js';
import {initialViewState} from '../../source/view-state/view-state.js';

function setUp() {
	const {store, writes} = createPodtopStore({mode: 'live', apiHost: 'api.runpod.ai', keyFingerprint: '••••1a2b'});
	writes.setPods(
		[
			{id: 'p1', name: 'trainer', desiredStatus: 'RUNNING', runtime: {gpus: [{gpuUtilPercent: 90}]}},
			{id: 'p2', name: 'idle-box', desiredStatus: 'EXITED'},
		],
		1,
	);
	writes.setEndpoints([{id: 'e1', name: 'llama'}], 1);
	return {store, writes, rows: createRowSelectors(unicodeGlyphs), view: initialViewState({columns: 120, rows: 40})};
}

test("a shown pane's rows are the same objects until its data, filter or sort changes", () => {
	const {store, writes, rows, view} = setUp();
	const first = rows.pane(store.getState(), view, 'pods');
	expect(first.shown.map(row => row.key)).toEqual(['p1', 'p2']);
	expect(rows.pane(store.getState(), view, 'pods')).toBe(first);
	writes.setPods([{id: 'p1', name: 'trainer', desiredStatus: 'RUNNING', runtime: {gpus: [{gpuUtilPercent: 10}]}}], 2);
	const after = rows.pane(store.getState(), view, 'pods');
	expect(after).not.toBe(first);
	expect(after.shown.map(row => row.key)).toEqual(['p1']);
});

test("asking for another pane lets go of the last one's rows; they come back equal, built again", () => {
	const {store, rows, view} = setUp();
	const pods = rows.pane(store.getState(), view, 'pods');
	const endpoints = rows.pane(store.getState(), view, 'endpoints');
	expect(endpoints.shown.map(row => row.key)).toEqual(['e1']);
	// The same pane again keeps its rows.
	expect(rows.pane(store.getState(), view, 'endpoints')).toBe(endpoints);
	const podsAgain = rows.pane(store.getState(), view, 'pods');
	expect(podsAgain).not.toBe(pods);
	expect(podsAgain).toEqual(pods);
	// And now the endpoints' rows were let go in turn.
	expect(rows.pane(store.getState(), view, 'endpoints')).not.toBe(endpoints);
});

test('a poll of a few pods remakes only their rows, and the column widths are those of every row measured afresh', () => {
	const {store, writes, rows, view} = setUp();
	const pod = (index: number, name: string, util: number) => ({id: `p${index}`, name, desiredStatus: 'RUNNING', runtime: {gpus: [{gpuUtilPercent: util}]}});
	const fleet = Array.from({length: 40}, (_, index) => pod(index, `pod-${index}`, index));
	writes.setPods([...fleet, pod(40, 'the-longest-name-of-all', 5)], 1);
	const first = rows.pane(store.getState(), view, 'pods');
	const measuredAfresh = () => createRowSelectors(unicodeGlyphs).pane(store.getState(), view, 'pods').widths;
	expect(first.widths).toEqual(measuredAfresh());
	// Two rows on screen read again: the other rows are the same objects.
	writes.updatePods([pod(3, 'pod-3', 99), pod(4, 'pod-4', 1)], 2);
	const second = rows.pane(store.getState(), view, 'pods');
	const byKey = (pane: typeof first) => new Map(pane.all.map(row => [row.key, row]));
	expect(byKey(second).get('p5')).toBe(byKey(first).get('p5'));
	expect(byKey(second).get('p3')).not.toBe(byKey(first).get('p3'));
	expect(second.widths).toEqual(measuredAfresh());
	// The widest name renamed shorter: its column narrows; a wider one raises it.
	writes.updatePods([pod(40, 'short', 5)], 3);
	const third = rows.pane(store.getState(), view, 'pods');
	expect(third.widths[0]).toBeLessThan(first.widths[0]!);
	expect(third.widths).toEqual(measuredAfresh());
	writes.updatePods([pod(7, 'a-name-wider-than-any-name-before-it', 7)], 4);
	const fourth = rows.pane(store.getState(), view, 'pods');
	expect(fourth.widths[0]).toBeGreaterThan(first.widths[0]!);
	expect(fourth.widths).toEqual(measuredAfresh());
	// The same figures read again write nothing; a change keeps the list's order as it was.
	const podsBefore = store.getState().pods;
	writes.updatePods([pod(7, 'a-name-wider-than-any-name-before-it', 7)], 5);
	expect(store.getState().pods).toBe(podsBefore);
	writes.updatePods([pod(7, 'a-name-wider-than-any-name-before-it', 8)], 6);
	expect(store.getState().pods.order).toBe(podsBefore.order);
	expect(Object.keys(store.getState().pods.byId)).toEqual(podsBefore.order);
});

test('a step that remakes most rows (the time cursor: every pod at another moment) measures the widths of the rows it shows, not of those it left', () => {
	const {store, writes, rows, view} = setUp();
	const pod = (index: number, name: string, util: number) => ({id: `p${index}`, name, desiredStatus: 'RUNNING', runtime: {gpus: [{gpuUtilPercent: util}]}});
	writes.setPods([...Array.from({length: 40}, (_, index) => pod(index, `pod-${index}`, index)), pod(40, 'the-longest-name-of-all', 5)], 1);
	const first = rows.pane(store.getState(), view, 'pods');
	const measuredAfresh = () => createRowSelectors(unicodeGlyphs).pane(store.getState(), view, 'pods').widths;
	// Every pod made anew, the widest name gone and the utilisation column one digit narrower.
	writes.setPods(
		Array.from({length: 40}, (_, index) => pod(index, `pod-${index}`, index % 10)),
		2,
	);
	const second = rows.pane(store.getState(), view, 'pods');
	expect(second.widths[0]).toBeLessThan(first.widths[0]!);
	expect(second.widths).toEqual(measuredAfresh());
	// Back to a few rows remade: widths kept and followed as before.
	writes.updatePods([pod(3, 'a-name-wider-than-any-name-before-it', 3)], 3);
	const third = rows.pane(store.getState(), view, 'pods');
	expect(third.widths[0]).toBeGreaterThan(first.widths[0]!);
	expect(third.widths).toEqual(measuredAfresh());
	writes.updatePods([pod(3, 'pod-3', 3)], 4);
	expect(rows.pane(store.getState(), view, 'pods').widths).toEqual(second.widths);
});

test('a poll whose list lost a pod and gained another keeps the rows of the others, found by their state, and widths as measured afresh', () => {
	const {store, writes, rows, view} = setUp();
	const pod = (index: number, name: string, util: number) => ({id: `p${index}`, name, desiredStatus: 'RUNNING', runtime: {gpus: [{gpuUtilPercent: util}]}});
	const fleet = Array.from({length: 40}, (_, index) => pod(index, `pod-${index}`, index));
	writes.setPods([...fleet, pod(40, 'the-longest-name-of-all', 5)], 1);
	const first = rows.pane(store.getState(), view, 'pods');
	const byKey = (pane: typeof first) => new Map(pane.all.map(row => [row.key, row]));
	// The widest pod gone, one new in the middle of the list: the ids are no longer where they were.
	writes.setPods([...fleet.slice(0, 20), pod(99, 'newcomer', 50), ...fleet.slice(20)], 2);
	const second = rows.pane(store.getState(), view, 'pods');
	expect(second.all.map(row => row.key)).toEqual(store.getState().pods.order);
	expect(byKey(second).get('p25')).toBe(byKey(first).get('p25'));
	expect(byKey(second).has('p40')).toBe(false);
	expect(second.widths[0]).toBeLessThan(first.widths[0]!);
	expect(second.widths).toEqual(createRowSelectors(unicodeGlyphs).pane(store.getState(), view, 'pods').widths);
});
