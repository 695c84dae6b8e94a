import {describe, expect, test} from 'vitest';
import {completeCommand, parseCommand} from '../../source/ui/commands.js';
import {filterMatcher, initialUiState, uiReducer} from '../../source/ui/ui-state.js';
import {diffFrame} from '../../source/ui/frame-writer.js';
import {sanitizeText} from '../../source/format/sanitize.js';
import {localeIsUtf8} from '../../source/format/glyphs.js';

describe('ui state', () => {
	test('movement is clamped to the rows there are', () => {
		let state = uiReducer(initialUiState, {type: 'move', by: 5, count: 3});
		expect(state.selected.endpoints).toBe(2);
		state = uiReducer(state, {type: 'move', by: -10, count: 3});
		expect(state.selected.endpoints).toBe(0);
	});

	test('drill-down is a stack: Esc pops, never past the list', () => {
		let state = uiReducer(initialUiState, {type: 'open', view: {type: 'endpoint', endpointId: 'e'}});
		state = uiReducer(state, {type: 'open', view: {type: 'job', jobKey: 'e/j'}});
		expect(state.views).toHaveLength(3);
		state = uiReducer(uiReducer(uiReducer(state, {type: 'back'}), {type: 'back'}), {type: 'back'});
		expect(state.views).toEqual([{type: 'list'}]);
	});

	test('each pane keeps its own filter, sort and selection', () => {
		let state = uiReducer(initialUiState, {type: 'overlay', overlay: 'filter'});
		state = uiReducer(state, {type: 'input', input: 'llama'});
		state = uiReducer(state, {type: 'apply-filter'});
		state = uiReducer(state, {type: 'next-pane', step: 1});
		expect(state.pane).toBe('pods');
		expect(state.filter).toEqual({endpoints: 'llama', pods: '', gpus: ''});
		expect(uiReducer(state, {type: 'next-pane', step: -1}).pane).toBe('endpoints');
		expect(uiReducer(uiReducer(state, {type: 'next-pane', step: 1}), {type: 'next-pane', step: 1}).pane).toBe('endpoints');
	});

	test('filters are case-insensitive regexes, ! inverts, a broken regex matches as text', () => {
		expect(filterMatcher('LL.ma')('llama')).toBe(true);
		expect(filterMatcher('!llama')('llama')).toBe(false);
		expect(filterMatcher('!llama')('sdxl')).toBe(true);
		expect(filterMatcher('[unclosed')('x [unclosed y')).toBe(true);
		expect(filterMatcher('')('anything')).toBe(true);
	});
});

describe('command palette', () => {
	test('parses the commands', () => {
		expect(parseCommand('pods')).toEqual({type: 'pane', pane: 'pods'});
		expect(parseCommand(':job ep1 job-1')).toEqual({type: 'job', endpointId: 'ep1', jobId: 'job-1'});
		expect(parseCommand('job ep1')).toMatchObject({type: 'error', message: expect.stringMatching(/usage/)});
		expect(parseCommand('q')).toEqual({type: 'quit'});
	});

	test('Tab completes commands, then endpoint ids, then tracked job ids', () => {
		const context = {endpointIds: ['abc123', 'abd456'], jobIds: (endpointId: string) => (endpointId === 'abc123' ? ['job-9'] : [])};
		expect(completeCommand('po', context)).toBe('pods ');
		expect(completeCommand('job a', context)).toBe('job ab');
		expect(completeCommand('job abc', context)).toBe('job abc123 ');
		expect(completeCommand('job abc123 j', context)).toBe('job abc123 job-9 ');
		expect(completeCommand('zzz', context)).toBe('zzz');
	});
});

describe('frame writer', () => {
	test('sends only the lines that changed, at their rows; clears lines that went away', () => {
		expect(diffFrame(['a', 'b', 'c'], ['a', 'B', 'c'])).toBe('\u001B[2;1HB\u001B[K');
		expect(diffFrame(['a', 'b', 'c'], ['a', 'b', 'c'])).toBe('');
		expect(diffFrame(['a', 'b', 'c'], ['a'])).toBe('\u001B[2;1H\u001B[K\u001B[3;1H\u001B[K');
	});
});

describe('untrusted text', () => {
	test('escape sequences and control characters are shown inert', () => {
		expect(sanitizeText('a\u001B[31mred\u0007\u0008\r\n\tb\u009B')).toBe('a␛[31mred^G^H\n    b\\u009b');
		expect(sanitizeText('\u202Eevil')).toBe('\\u202eevil');
	});

	test('ASCII mode follows the locale', () => {
		expect(localeIsUtf8({LANG: 'C.UTF-8'})).toBe(true);
		expect(localeIsUtf8({LC_ALL: 'C', LANG: 'en_US.UTF-8'})).toBe(false);
		expect(localeIsUtf8({LANG: 'en_US.ISO-8859-1'})).toBe(false);
	});
});
