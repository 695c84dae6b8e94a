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
