import {expect, test} from 'vitest';
import {unicodeGlyphs} from '../../source/format/glyphs.js';
import {endpointRows} from '../../source/rows/endpoint-rows.js';
import {filterFields} from '../../source/rows/filter-fields.js';
import {gpuRows} from '../../source/rows/gpu-rows.js';
import {testStore} from '../helpers/ui-fixture.js';

test('the filter names the text columns each pane shows at its width, and nothing it hides', () => {
	expect(filterFields('endpoints', true)).toEqual(['name']);
	expect(filterFields('endpoints', false)).toEqual(['name']);
	expect(filterFields('pods', true)).toEqual(['name', 'gpu', 'status']);
	expect(filterFields('pods', false)).toEqual(['name', 'gpu', 'st']);
	expect(filterFields('gpus', true)).toEqual(['gpu type', 'stock', 'compliance']);
	expect(filterFields('gpus', false)).toEqual(['gpu type', 'stock']);
});

test("an endpoint's search text is its name, a GPU type's its name, stock and (wide) compliance: never an id or the GPU pools", () => {
	const {store, writes} = testStore();
	writes.setEndpoints([{id: 'xt1gzq19i1floi', name: 'embeddings-bge-m3', gpuIds: 'AMPERE_48,ADA_24'}], 0);
	writes.setGpuTypes([{id: 'NVIDIA L40S', displayName: 'L40S', lowestPrice: {stockStatus: 'Low', compliance: ['SOC_2_TYPE_2']}}], 0);
	const state = store.getState();
	const endpoints = state.endpoints.order.map(id => state.endpoints.byId[id]!);
	const gpus = state.gpus.order.map(id => state.gpus.byId[id]!);
	for (const wide of [true, false]) {
		expect(endpointRows(endpoints, wide, unicodeGlyphs)[0]?.searchText).toBe('embeddings-bge-m3');
	}

	expect(gpuRows(gpus, true, unicodeGlyphs)[0]?.searchText).toBe('L40S\nLow\nSOC2');
	expect(gpuRows(gpus, false, unicodeGlyphs)[0]?.searchText).toBe('L40S\nLow');
});
