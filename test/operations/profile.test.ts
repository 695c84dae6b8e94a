import {describe, expect, test} from 'vitest';
import {unicodeGlyphs} from '../../source/format/glyphs.js';
import {handleText} from '../../source/operations/handle-key.js';
import {helpSections} from '../../source/operations/help.js';
import type {Accounts, OperationContext} from '../../source/operations/operation.js';
import {parsePalette} from '../../source/operations/palette.js';
import {completePalette} from '../helpers/complete-palette.js';
import {places} from '../../source/operations/registry.js';
import {createRowSelectors} from '../../source/rows/visible-rows.js';
import {createPodtopStore} from '../../source/store/create-store.js';
import {viewReducer} from '../../source/view-state/view-reducer.js';
import {createViewStore} from '../../source/view-state/view-store.js';
import {initialViewState} from '../../source/view-state/view-state.js';
import {testStore, tick} from '../helpers/ui-fixture.js';

/** A dashboard's context with accounts that record what they are asked to switch to. */
function contextWith(names: readonly string[], refuse?: string) {
	const asked: string[] = [];
	const accounts: Accounts = {
		names: () => names,
		async switchTo(name) {
			asked.push(name);
			if (refuse) {
				throw new Error(refuse);
			}
		},
	};
	const context: OperationContext = {
		engine: undefined,
		store: createPodtopStore({mode: 'live', apiHost: 'a.test', keyFingerprint: '••••1a2b', profile: {name: 'lab', color: undefined}}).store,
		view: createViewStore(initialViewState({columns: 120, rows: 40})),
		rows: createRowSelectors(unicodeGlyphs),
		exit() {},
		accounts,
	};
	const message = () => context.view.getState().message;
	return {context, asked, message};
}

describe(':profile in the palette', () => {
	test('parses in every place, read-only too (it sends nothing), with the name as its argument', () => {
		for (const place of places) {
			expect(parsePalette('profile prod', place, true), place).toMatchObject({operation: {id: 'account.profile'}, args: ['prod']});
		}

		expect(parsePalette(':profile', 'job', false)).toMatchObject({operation: {id: 'account.profile'}, args: []});
	});

	test('Tab completes the command, then the sections of ~/.runpod/config.toml', () => {
		const state = testStore().store.getState();
		const profiles = () => ['lab', 'live-eu', 'prod'];
		const complete = (input: string) => completePalette(input, 'endpoints', false, state, profiles);
		expect(complete('prof')).toBe('profile ');
		expect(complete('profile p')).toBe('profile prod ');
		// Two start so and share no more: Tab puts in the first (and again, the next: see the palette's tests).
		expect(complete('profile l')).toBe('profile lab');
		expect(complete('profile la')).toBe('profile lab ');
		expect(complete('profile x')).toBe('profile x');
		// Without a list (a dashboard that cannot switch), nothing is offered.
		expect(completePalette('profile p', 'endpoints', false, state)).toBe('profile p');
	});

	test('help lists :profile in every place', () => {
		for (const place of places) {
			expect(
				helpSections(place, true)
					.flatMap(section => section.lines)
					.some(line => line.keys === ':profile <profile>'),
				place,
			).toBe(true);
		}
	});

	test('a name: asks the dashboard to switch; alone: lists the profiles, the one on screen marked', async () => {
		const {context, asked, message} = contextWith(['lab', 'prod']);
		handleText(context, ':profile prod\r');
		await tick();
		expect(asked).toEqual(['prod']);
		handleText(context, ':profile\r');
		await tick();
		expect(message()).toEqual({text: 'profiles: lab (on screen), prod; :profile NAME switches', tone: 'info'});
		expect(asked).toEqual(['prod']);
	});

	test('a name the file lacks, or one the dashboard cannot open, is said and the account stays', async () => {
		const {context, asked, message} = contextWith(['lab', 'prod']);
		handleText(context, ':profile staging\r');
		await tick();
		expect(asked).toEqual([]);
		expect(message()).toEqual({text: 'no profile "staging" in ~/.runpod/config.toml; the profiles are lab, prod', tone: 'bad'});

		const refused = contextWith(['lab', 'prod'], 'no API key for profile "prod" in ~/.runpod/config.toml');
		handleText(refused.context, ':profile prod\r');
		await tick();
		expect(refused.message()).toEqual({
			text: 'cannot switch to profile "prod": no API key for profile "prod" in ~/.runpod/config.toml; still on lab',
			tone: 'bad',
		});
	});

	test('no ~/.runpod/config.toml (the DEMO without a key): says profiles need it', async () => {
		const {context, asked, message} = contextWith([]);
		handleText(context, ':profile prod\r');
		await tick();
		expect(asked).toEqual([]);
		expect(message()).toEqual({text: 'profiles need ~/.runpod/config.toml: a [NAME] section with its api_key for each account', tone: 'bad'});
	});
});

describe('the view on a switch of account', () => {
	test('back to the list and live, nothing open or selected; the pane, sorts, filters and windows stay', () => {
		let state = initialViewState({columns: 120, rows: 40, views: [{type: 'list'}, {type: 'job', endpointId: 'e', jobId: 'j'}]});
		state = viewReducer(state, {type: 'switch-pane', pane: 'pods'});
		state = viewReducer(state, {type: 'open', view: {type: 'pod', podId: 'p', showEnv: false}});
		state = viewReducer(state, {type: 'move', keys: ['p', 'q'], to: 'last'});
		state = viewReducer(state, {type: 'cursor', at: 1000});
		state = viewReducer(state, {type: 'window', step: 1});
		state = {...state, filter: {...state.filter, pods: 'gpu'}};
		const next = viewReducer(state, {type: 'switch-account', message: 'profile "b"'});
		expect(next).toMatchObject({
			pane: 'pods',
			views: [{type: 'list'}],
			cursor: undefined,
			overlay: {type: 'none'},
			filter: {pods: 'gpu'},
			windows: state.windows,
			message: {text: 'profile "b"', tone: 'info'},
		});
		expect(next.selected.pods.key).toBeUndefined();
	});
});
