import {expect, test} from 'vitest';
import type {Engine} from '../../source/engine/create-engine.js';
import type {PodRecord} from '../../source/model/pod.js';
import type {OperationContext} from '../../source/operations/operation.js';
import {operations} from '../../source/operations/registry.js';
import {unicodeGlyphs} from '../../source/format/glyphs.js';
import {createRowSelectors} from '../../source/rows/visible-rows.js';
import {initialViewState} from '../../source/view-state/view-state.js';
import {createViewStore} from '../../source/view-state/view-store.js';
import {testStore} from '../helpers/ui-fixture.js';

/** What a pod key says about the selected pod, before anything is sent. */
function targetOf(operationId: string, pod: PodRecord): unknown {
	const {store, writes} = testStore();
	writes.setPods([pod], Date.now());
	const view = createViewStore(initialViewState({columns: 120, rows: 40}));
	view.dispatch({type: 'select', pane: 'pods', key: pod.id});
	const context: OperationContext = {
		engine: {readOnly: false} as unknown as Engine,
		store,
		view,
		rows: createRowSelectors(unicodeGlyphs),
		exit() {},
	};
	const operation = operations.find(candidate => candidate.id === operationId)!;
	return operation.target(context, []);
}

const pod = (overrides: Partial<PodRecord>): PodRecord => ({id: 'p1', name: 'trainer', desiredStatus: 'RUNNING', ...overrides});

test('over REST v2 the actions the service lists decide, before anything is sent', () => {
	// PROVISIONING: the service allows only terminate; the status alone (not RUNNING) would let resume through.
	const provisioning = pod({desiredStatus: 'PROVISIONING', actions: ['terminate']});
	expect(targetOf('pod.resume', provisioning)).toEqual({unavailable: 'trainer is PROVISIONING: the service allows only terminate now'});
	expect(targetOf('pod.stop', provisioning)).toEqual({unavailable: 'trainer is PROVISIONING: the service allows only terminate now'});
	expect(targetOf('pod.terminate', provisioning)).toEqual({podId: 'p1', name: 'trainer'});
	expect(targetOf('pod.terminate', pod({desiredStatus: 'TERMINATED', actions: []}))).toEqual({
		unavailable: 'trainer is TERMINATED: the service allows no action now',
	});
});

test('without a list (GraphQL) the status decides, as before', () => {
	expect(targetOf('pod.stop', pod({desiredStatus: 'EXITED'}))).toEqual({unavailable: 'trainer is not running: nothing to stop'});
	expect(targetOf('pod.resume', pod({}))).toEqual({unavailable: 'trainer is running already'});
	expect(targetOf('pod.stop', pod({}))).toEqual({podId: 'p1', name: 'trainer'});
});
