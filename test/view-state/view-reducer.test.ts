import {describe, expect, test} from 'vitest';
import {filterMatcher, filterProblem} from '../../source/view-state/filter-matcher.js';
import {selectedIndex, viewReducer} from '../../source/view-state/view-reducer.js';
import {confirmationMatches, initialViewState, type ConfirmOverlay} from '../../source/view-state/view-state.js';

const start = initialViewState({columns: 120, rows: 40});

describe('view state', () => {
	test('movement is clamped to the rows shown, and the selection stays on its row when rows move', () => {
		let state = viewReducer(start, {type: 'move', by: 5, keys: ['a', 'b', 'c']});
		expect(state.selected.endpoints).toEqual({key: 'c', index: 2});
		state = viewReducer(state, {type: 'move', by: -10, keys: ['a', 'b', 'c']});
		expect(state.selected.endpoints).toEqual({key: 'a', index: 0});
		state = viewReducer(state, {type: 'move', by: 1, keys: ['a', 'b', 'c']});
		// A poll re-sorted the rows: `b` is still the one selected, wherever it went.
		expect(selectedIndex(state.selected.endpoints, ['c', 'a', 'b'])).toBe(2);
		// It went away: the selection stays near where it was.
		expect(selectedIndex(state.selected.endpoints, ['a', 'c'])).toBe(1);
		expect(viewReducer(state, {type: 'move', to: 'last', keys: ['a', 'b', 'c', 'd']}).selected.endpoints).toEqual({key: 'd', index: 3});
	});

	test('drill-down is a stack: Esc pops, never past the list; the endpoint details have their own selection', () => {
		let state = viewReducer(start, {type: 'open', view: {type: 'endpoint', endpointId: 'e'}});
		state = viewReducer(state, {type: 'move', by: 1, keys: ['e/1', 'e/2']});
		expect(state.selected.endpoint.key).toBe('e/2');
		expect(state.selected.endpoints.key).toBeUndefined();
		state = viewReducer(state, {type: 'open', view: {type: 'job', endpointId: 'e', jobId: 'j'}});
		expect(state.views).toHaveLength(3);
		state = viewReducer(viewReducer(viewReducer(state, {type: 'back'}), {type: 'back'}), {type: 'back'});
		expect(state.views).toEqual([{type: 'list'}]);
	});

	test('each pane keeps its own filter, sort and selection', () => {
		let state = viewReducer(start, {type: 'open-overlay', overlay: 'filter'});
		state = viewReducer(state, {type: 'input', input: 'llama'});
		state = viewReducer(state, {type: 'apply-filter'});
		state = viewReducer(state, {type: 'next-pane', step: 1});
		expect(state.pane).toBe('pods');
		expect(state.filter).toEqual({endpoints: 'llama', pods: '', gpus: '', events: ''});
		expect(viewReducer(state, {type: 'next-pane', step: -1}).pane).toBe('endpoints');
		expect(viewReducer(viewReducer(state, {type: 'next-pane', step: 1}), {type: 'next-pane', step: 1}).pane).toBe('endpoints');
	});

	test('the job view scrolls within its lines and holds its place as lines arrive: g goes to the top, G or the last line follows the tail again', () => {
		let state = viewReducer(start, {type: 'scroll-job', by: 5, lines: 50, rows: 10});
		expect(state.jobEnd).toBe(45);
		state = viewReducer(state, {type: 'scroll-job', by: -1, lines: 50, rows: 10});
		expect(state.jobEnd).toBe(46);
		// More lines arrived: the view still ends where it did.
		state = viewReducer(state, {type: 'scroll-job', by: 1, lines: 80, rows: 10});
		expect(state.jobEnd).toBe(45);
		expect(viewReducer(state, {type: 'scroll-job', by: 100, lines: 80, rows: 10}).jobEnd).toBe(10);
		expect(viewReducer(state, {type: 'scroll-job', to: 'top', lines: 80, rows: 10}).jobEnd).toBe(10);
		expect(viewReducer(state, {type: 'scroll-job', to: 'tail', lines: 80, rows: 10}).jobEnd).toBeUndefined();
		expect(viewReducer(state, {type: 'scroll-job', by: -35, lines: 80, rows: 10}).jobEnd).toBeUndefined();
		// Fewer lines than rows: nothing to scroll, it keeps following.
		expect(viewReducer(start, {type: 'scroll-job', by: 1, lines: 8, rows: 10}).jobEnd).toBeUndefined();
	});

	test('a typed confirmation refused by Enter stays open and remembers it was refused until the text changes', () => {
		let state = viewReducer(start, {type: 'confirm', operationId: 'endpoint.purge-queue', target: 'e', prompt: 'Purge?', typeToConfirm: 'parked'});
		state = viewReducer(state, {type: 'input', input: 'y'});
		expect(state.overlay).toMatchObject({type: 'confirm', input: 'y', rejected: false});
		expect(confirmationMatches(state.overlay as ConfirmOverlay)).toBe(false);
		state = viewReducer(state, {type: 'reject-confirmation'});
		expect(state.overlay).toMatchObject({type: 'confirm', input: 'y', rejected: true, typeToConfirm: 'parked', operationId: 'endpoint.purge-queue'});
		state = viewReducer(state, {type: 'input', input: 'parked'});
		expect(state.overlay).toMatchObject({type: 'confirm', input: 'parked', rejected: false});
		expect(confirmationMatches(state.overlay as ConfirmOverlay)).toBe(true);
		// Only a confirmation is refused; a y/N question matches on its key.
		expect(viewReducer(start, {type: 'reject-confirmation'})).toBe(start);
		expect(confirmationMatches({input: '', typeToConfirm: undefined})).toBe(true);
	});

	test('an action that changes nothing returns the same state (nothing re-renders)', () => {
		expect(viewReducer(start, {type: 'resize', columns: 120, rows: 40})).toBe(start);
		expect(viewReducer(start, {type: 'close-overlay'})).toBe(start);
		expect(viewReducer(start, {type: 'back'})).toBe(start);
	});

	test('filters are case-insensitive regexes over fields one a line, ! inverts, a broken regex matches as text', () => {
		expect(filterMatcher('LL.ma')('llama')).toBe(true);
		expect(filterMatcher('!llama')('llama')).toBe(false);
		expect(filterMatcher('!llama')('sdxl')).toBe(true);
		expect(filterMatcher('[unclosed')('x [unclosed y')).toBe(true);
		expect(filterMatcher('')('anything')).toBe(true);
		expect(filterMatcher('^h100')('trainer\nH100 SXM')).toBe(true);
		expect(filterMatcher('er.*h')('trainer\nH100 SXM')).toBe(false);
		expect(filterProblem('l.*a')).toBeUndefined();
		expect(filterProblem('!(a')).toBe('Unterminated group');
	});

	test('the filter applies as it is typed; text that is not a regex keeps the last filter; Enter keeps it, Esc clears it', () => {
		let state = viewReducer(start, {type: 'move', by: 2, keys: ['a', 'b', 'c']});
		state = viewReducer(state, {type: 'open-overlay', overlay: 'filter'});
		state = viewReducer(state, {type: 'input', input: 'll'});
		expect(state.filter.endpoints).toBe('ll');
		expect(state.selected.endpoints).toEqual({key: undefined, index: 0});
		state = viewReducer(state, {type: 'input', input: 'll['});
		expect(state.filter.endpoints).toBe('ll');
		expect(state.overlay).toEqual({type: 'filter', input: 'll['});
		state = viewReducer(state, {type: 'apply-filter'});
		expect(state.overlay.type).toBe('none');
		expect(state.filter.endpoints).toBe('ll');
		state = viewReducer(viewReducer(state, {type: 'open-overlay', overlay: 'filter'}), {type: 'input', input: 'llx'});
		expect(viewReducer(state, {type: 'clear-filter'}).filter.endpoints).toBe('');
	});
});
