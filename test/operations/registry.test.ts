import {describe, expect, test} from 'vitest';
import {footerHint, helpSections} from '../../source/operations/help.js';
import {paletteCompletion, parsePalette, tabPalette} from '../../source/operations/palette.js';
import {completePalette} from '../helpers/complete-palette.js';
import {operations, operationsIn, places} from '../../source/operations/registry.js';
import {testStore} from '../helpers/ui-fixture.js';

describe('operations as data', () => {
	test('no two operations in one place share a key', () => {
		for (const place of places) {
			const seen = new Map<string, string>();
			for (const operation of operationsIn(place, false)) {
				for (const key of operation.keys) {
					expect(seen.get(key), `${place}: ${key} is bound to ${seen.get(key)} and ${operation.id}`).toBeUndefined();
					seen.set(key, operation.id);
				}
			}
		}
	});

	test('every operation has an id of its own, help text, and a key or a palette command', () => {
		expect(new Set(operations.map(operation => operation.id)).size).toBe(operations.length);
		for (const operation of operations) {
			expect(operation.title.length, operation.id).toBeGreaterThan(5);
			expect(operation.keys.length > 0 || operation.palette !== undefined, operation.id).toBe(true);
			expect(operation.scope.length, operation.id).toBeGreaterThan(0);
		}
	});

	test('every write asks first: y/N for writes, a typed name for destructive ones', () => {
		const writes = operations.filter(operation => operation.danger !== 'read');
		expect(writes.length).toBeGreaterThan(0);
		for (const operation of writes) {
			expect(operation.confirm, operation.id).toBeDefined();
		}
	});

	test('palette names are unique in every place', () => {
		for (const place of places) {
			const names = operationsIn(place, false).flatMap(operation => (operation.palette ? [operation.palette.name, ...(operation.palette.aliases ?? [])] : []));
			expect(new Set(names).size, place).toBe(names.length);
		}
	});

	test('read-only mode: writes vanish from keys, help, palette and footer', () => {
		for (const place of places) {
			expect(operationsIn(place, true).every(operation => operation.danger === 'read')).toBe(true);
		}

		expect(
			helpSections('endpoints', false)
				.flatMap(section => section.lines)
				.some(line => line.keys === 't'),
		).toBe(true);
		expect(
			helpSections('endpoints', true)
				.flatMap(section => section.lines)
				.some(line => line.keys === 't'),
		).toBe(false);
		expect(footerHint('endpoints', false)).toMatch(/q quit/);
	});
});

describe('command palette', () => {
	test('parses commands and their aliases into operations with arguments', () => {
		expect(parsePalette('pods', 'endpoints', false)).toMatchObject({operation: {id: 'pane.pods'}, args: []});
		expect(parsePalette(':po', 'job', false)).toMatchObject({operation: {id: 'pane.pods'}});
		expect(parsePalette('job ep1 job-1', 'endpoints', false)).toMatchObject({operation: {id: 'job.follow'}, args: ['ep1', 'job-1']});
		expect(parsePalette('q', 'gpus', false)).toMatchObject({operation: {id: 'quit'}});
		expect(parsePalette('frobnicate', 'gpus', false)).toMatchObject({error: expect.stringMatching(/unknown command ":frobnicate" \(try :.*:pods.*:quit/)});
	});

	test('Tab completes commands, then endpoint names (ids where a name is not one typable word of its own), then tracked job ids', () => {
		const state = testStore();
		state.writes.setEndpoints(
			[
				{id: 'abc123', name: 'alpha'},
				{id: 'abd456', name: 'alpine'},
				{id: 'evil1', name: 'evil\u001B[2J'},
				{id: 'two1', name: 'twin'},
				{id: 'two2', name: 'twin'},
			],
			0,
		);
		state.writes.trackJob('abc123', 'job-9');
		const complete = (input: string) => completePalette(input, 'endpoints', false, state.store.getState());
		expect(complete('po')).toBe('pods ');
		expect(complete('job a')).toBe('job alp');
		expect(complete('job alph')).toBe('job alpha ');
		expect(complete('job alpha j')).toBe('job alpha job-9 ');
		expect(complete('job abc123 j')).toBe('job abc123 job-9 ');
		expect(complete('zzz')).toBe('zzz');
		expect(paletteCompletion('run ', 'endpoints', false, state.store.getState()).candidates).toEqual(['alpha', 'alpine', 'evil1', 'two1', 'two2']);
	});

	test(':worker completes the workers podtop knows of the endpoint named, listed then gone, each typable; it is offered where workers are about', () => {
		const state = testStore();
		state.writes.setEndpoints([{id: 'ep1', name: 'llava'}], 0);
		const worker = (id: string) => ({id, status: 'RUNNING', isStale: false});
		state.writes.setWorkers('ep1', {endpointId: 'ep1', workers: [worker('wa1'), worker('wb2'), worker('w\u001B[2J')], readAt: 1000});
		state.writes.setWorkers('ep1', {endpointId: 'ep1', workers: [worker('wa1'), worker('w\u001B[2J')], readAt: 2000});
		const complete = (input: string) => completePalette(input, 'endpoint', false, state.store.getState());
		expect(paletteCompletion('worker llava ', 'endpoint', false, state.store.getState()).candidates).toEqual(['wa1', 'wb2']);
		expect(complete('worker llava wb')).toBe('worker llava wb2 ');
		expect(paletteCompletion('wor', 'worker', false, state.store.getState()).candidates).toEqual(['worker']);
		expect(paletteCompletion('wor', 'endpoints', false, state.store.getState()).candidates).toEqual([]);
	});

	test('Tab again goes round the candidates, Shift-Tab back; one candidate is completed with a space', () => {
		const state = testStore();
		const completion = (input: string) => () => paletteCompletion(input, 'endpoints', false, state.store.getState());
		let tab = tabPalette('p', undefined, completion('p'));
		expect(tab).toEqual({input: 'pods', cycle: {head: '', candidates: ['pods', 'profile'], index: 0}});
		tab = tabPalette(tab.input, tab.cycle, completion(tab.input));
		expect(tab.input).toBe('profile');
		tab = tabPalette(tab.input, tab.cycle, completion(tab.input));
		expect(tab.input).toBe('pods');
		expect(tabPalette(tab.input, tab.cycle, completion(tab.input), -1).input).toBe('profile');
		expect(tabPalette('p', undefined, completion('p'), -1).input).toBe('profile');
		expect(tabPalette('he', undefined, completion('he'))).toEqual({input: 'help '});
	});
});
