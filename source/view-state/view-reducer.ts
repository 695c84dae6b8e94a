import {filterProblem} from './filter-matcher.js';
import type {LogSettings} from './log-settings.js';
import {
	filterOf,
	currentPlace,
	currentView,
	filterPlace,
	historyWindows,
	jobStatusFilters,
	spendWindows,
	listPanes,
	type Confirmation,
	type FormOverlay,
	type ListPane,
	type PaletteCycle,
	type Selection,
	type ViewState,
	type View,
} from './view-state.js';

export type ViewAction =
	| {readonly type: 'resize'; readonly columns: number; readonly rows: number}
	| {readonly type: 'endpoints-on-screen'; readonly keys: readonly string[]}
	| {readonly type: 'switch-pane'; readonly pane: ListPane}
	| {readonly type: 'next-pane'; readonly step: 1 | -1}
	/** Moves the selection over the rows shown now (their keys, in order). */
	| {readonly type: 'move'; readonly keys: readonly string[]; readonly by?: number; readonly to?: 'first' | 'last'}
	| {readonly type: 'open'; readonly view: View}
	| {readonly type: 'back'}
	| {readonly type: 'sort-next'; readonly columns: number}
	| {readonly type: 'sort-reverse'}
	| {readonly type: 'open-overlay'; readonly overlay: 'help' | 'filter' | 'palette'}
	| ({readonly type: 'confirm'} & Confirmation)
	| {readonly type: 'close-overlay'}
	/** Scrolls the `?` overlay by rows, or to its first or last row. */
	| {readonly type: 'scroll-help'; readonly by?: number; readonly to?: 'first' | 'last'}
	/** The `?` overlay says how far it can scroll at its size. */
	| {readonly type: 'help-extent'; readonly lastScroll: number}
	/** Enter on a typed confirmation that does not match: it stays open and says so. */
	| {readonly type: 'reject-confirmation'}
	| {readonly type: 'next-job-status-filter'}
	/** In an endpoint's details: j/k and Enter go to the other table (the workers or the jobs). */
	| {readonly type: 'switch-endpoint-focus'}
	/** In a pod's details: show or hide its environment's values. */
	| {readonly type: 'toggle-env'}
	/** Shows a list pane with one row selected (a pod just deployed). */
	| {readonly type: 'select'; readonly pane: ListPane; readonly key: string}
	| ({readonly type: 'open-form'} & Omit<FormOverlay, 'type'>)
	| {readonly type: 'edit-form'; readonly values: FormOverlay['values']; readonly focus: number; readonly cursor: number}
	/** The text of the bar or question open; in the palette, `cycle` when Tab goes round candidates (typing ends it). */
	| {readonly type: 'input'; readonly input: string; readonly cycle?: PaletteCycle}
	| {readonly type: 'apply-filter'}
	| {readonly type: 'clear-filter'}
	| {readonly type: 'message'; readonly text: string | undefined; readonly tone?: 'info' | 'good' | 'bad'}
	| {readonly type: 'pending'; readonly text: string | undefined}
	/** The place on screen shows a wider (1) or narrower (-1) span of history. */
	| {readonly type: 'window'; readonly step: 1 | -1}
	/** The dashboard shows the account at this moment; undefined goes back to live. */
	| {readonly type: 'cursor'; readonly at: number | undefined}
	/** The dashboard now shows another account: back to the list, live, nothing selected or open; the pane, sorts, filters and windows stay. */
	| {readonly type: 'switch-account'; readonly message?: string}
	/** `max`: the most lines there are to scroll back (the job's lines less a screenful). */
	/** `by` lines up (down when negative) in a job's `lines`, `rows` of them shown; at the last line it follows the tail again. */
	| {readonly type: 'scroll-job'; readonly by?: number; readonly to?: 'top' | 'tail'; readonly lines: number; readonly rows: number}
	/** The log view's place or layout changes (`end: undefined` follows the tail again). */
	| {readonly type: 'log-settings'; readonly settings: Partial<Omit<LogSettings, 'filter'>>}
	/** Moves the events timeline's selection by rows, or to its first or last row. */
	| {readonly type: 'move-events'; readonly by?: number; readonly to?: 'first' | 'last'}
	/** The events timeline says how many rows it shows now (the filter applied). */
	| {readonly type: 'events-count'; readonly count: number}
	/** The Spend pane shows a longer (1) or shorter (-1) span. */
	| {readonly type: 'spend-window'; readonly step: 1 | -1}
	/** Moves the Spend pane's selection over its costliest resources. */
	| {readonly type: 'move-spend'; readonly by?: number; readonly to?: 'first' | 'last'}
	/** The Spend pane says which resources it lists now, in order. */
	| {readonly type: 'spend-keys'; readonly keys: readonly string[]};

const unselected: Selection = {key: undefined, index: 0};

/**
The filter of the place on screen set to `filter` when it is a regex; otherwise the filter and rows as they were. A pane's
or the events timeline's selection goes back to the first row; the log view holds still where it is (the lines matched are counted there).
*/
function withFilter(state: ViewState, filter: string): ViewState {
	if (filter === filterOf(state) || filterProblem(filter) !== undefined) {
		return state;
	}

	if (currentView(state).type === 'logs') {
		return {...state, logs: {...state.logs, filter}};
	}

	const place = filterPlace(state);
	const reset = place === 'events' ? {events: {...state.events, index: 0}} : {selected: {...state.selected, [place]: unselected}};
	return {...state, filter: {...state.filter, [place]: filter}, ...reset};
}

const clamp = (value: number, count: number) => Math.max(0, Math.min(count - 1, value));

/** Where a selection stands among the rows shown: on its row while it is there, else near where it was. */
export function selectedIndex(selection: Selection, keys: readonly string[]): number {
	const index = selection.key === undefined ? -1 : keys.indexOf(selection.key);
	return index === -1 ? clamp(selection.index, keys.length) : index;
}

/** The list the selection keys belong to now: the pane's, or the endpoint details' jobs or workers. */
export const selectionPlace = (state: ViewState): keyof ViewState['selected'] => {
	const {type} = currentView(state);
	if (type === 'endpoint') {
		return state.endpointFocus === 'workers' ? 'workers' : 'endpoint';
	}

	return type === 'alerts' ? type : state.pane;
};

/** Every UI state change: pure, so keys never wait for anything and tests need no terminal. A form that closes leaves its values as a draft. */
export function viewReducer(state: ViewState, action: ViewAction): ViewState {
	const next = reduce(state, action);
	const {overlay} = state;
	if (overlay.type === 'form' && next.overlay !== overlay && next.overlay.type !== 'form') {
		return {...next, drafts: {...next.drafts, [overlay.draftKey]: overlay.values}};
	}

	return next;
}

function reduce(state: ViewState, action: ViewAction): ViewState {
	switch (action.type) {
		case 'resize': {
			return state.columns === action.columns && state.rows === action.rows ? state : {...state, columns: action.columns, rows: action.rows};
		}

		case 'switch-pane': {
			return {...state, pane: action.pane, views: [{type: 'list'}], message: undefined};
		}

		case 'next-pane': {
			const index = (listPanes.indexOf(state.pane) + action.step + listPanes.length) % listPanes.length;
			return {...state, pane: listPanes[index] ?? 'endpoints', views: [{type: 'list'}], message: undefined};
		}

		case 'move': {
			const place = selectionPlace(state);
			const {keys} = action;
			if (keys.length === 0) {
				return state;
			}

			const from = selectedIndex(state.selected[place], keys);
			const index = action.to === 'first' ? 0 : action.to === 'last' ? keys.length - 1 : clamp(from + (action.by ?? 0), keys.length);
			return {...state, selected: {...state.selected, [place]: {key: keys[index], index}}};
		}

		case 'open': {
			const reset =
				action.view.type === 'endpoint'
					? {selected: {...state.selected, endpoint: unselected, workers: unselected}, endpointFocus: 'jobs' as const}
					: action.view.type === 'alerts'
						? {selected: {...state.selected, [action.view.type]: unselected}}
						: action.view.type === 'events'
							? {events: {...state.events, index: 0}}
							: action.view.type === 'logs'
								? {logs: {...state.logs, end: undefined, filter: ''}}
								: {};
			return {...state, ...reset, views: [...state.views, action.view], jobEnd: undefined, message: undefined};
		}

		case 'back': {
			return state.views.length > 1 ? {...state, views: state.views.slice(0, -1), jobEnd: undefined, message: undefined} : state;
		}

		case 'sort-next': {
			const current = state.sort[state.pane];
			return {...state, sort: {...state.sort, [state.pane]: {column: (current.column + 1) % action.columns, descending: current.descending}}};
		}

		case 'sort-reverse': {
			const current = state.sort[state.pane];
			return {...state, sort: {...state.sort, [state.pane]: {...current, descending: !current.descending}}};
		}

		case 'open-overlay': {
			if (action.overlay === 'help') {
				return {...state, overlay: {type: 'help', scroll: 0, lastScroll: 0}};
			}

			return {...state, overlay: {type: action.overlay, input: action.overlay === 'filter' ? filterOf(state) : ''}};
		}

		case 'confirm': {
			const {type: _type, ...confirmation} = action;
			return {...state, overlay: {type: 'confirm', input: '', ...confirmation}};
		}

		case 'open-form': {
			const {type: _type, ...form} = action;
			return {...state, overlay: {type: 'form', ...form}, message: undefined};
		}

		case 'edit-form': {
			return state.overlay.type === 'form'
				? {...state, overlay: {...state.overlay, values: action.values, focus: action.focus, cursor: action.cursor}, message: undefined}
				: state;
		}

		case 'select': {
			return {
				...state,
				pane: action.pane,
				views: [{type: 'list'}],
				filter: {...state.filter, [action.pane]: ''},
				selected: {...state.selected, [action.pane]: {key: action.key, index: 0}},
			};
		}

		case 'switch-endpoint-focus': {
			return {...state, endpointFocus: state.endpointFocus === 'jobs' ? 'workers' : 'jobs'};
		}

		case 'toggle-env': {
			const view = currentView(state);
			return view.type === 'pod' ? {...state, views: [...state.views.slice(0, -1), {...view, showEnv: !view.showEnv}]} : state;
		}

		case 'next-job-status-filter': {
			const next = jobStatusFilters[(jobStatusFilters.indexOf(state.jobStatusFilter) + 1) % jobStatusFilters.length] ?? 'all';
			return {...state, jobStatusFilter: next, selected: {...state.selected, endpoint: {key: undefined, index: 0}}};
		}

		case 'scroll-help': {
			if (state.overlay.type !== 'help') {
				return state;
			}

			const {scroll, lastScroll} = state.overlay;
			const next = action.to === 'first' ? 0 : action.to === 'last' ? lastScroll : Math.max(0, Math.min(lastScroll, scroll + (action.by ?? 0)));
			return next === scroll ? state : {...state, overlay: {...state.overlay, scroll: next}};
		}

		case 'move-events': {
			const last = Math.max(0, state.events.count - 1);
			const index = action.to === 'first' ? 0 : action.to === 'last' ? last : Math.max(0, Math.min(last, state.events.index + (action.by ?? 0)));
			return index === state.events.index ? state : {...state, events: {...state.events, index}};
		}

		case 'events-count': {
			if (state.events.count === action.count) {
				return state;
			}

			return {...state, events: {count: action.count, index: Math.max(0, Math.min(state.events.index, action.count - 1))}};
		}

		case 'spend-window': {
			const index = Math.max(0, Math.min(spendWindows.length - 1, spendWindows.indexOf(state.spend.window) + action.step));
			const window = spendWindows[index]!;
			return window === state.spend.window ? state : {...state, spend: {...state.spend, window, index: 0}};
		}

		case 'move-spend': {
			const last = Math.max(0, state.spend.keys.length - 1);
			const index = action.to === 'first' ? 0 : action.to === 'last' ? last : Math.max(0, Math.min(last, state.spend.index + (action.by ?? 0)));
			return index === state.spend.index ? state : {...state, spend: {...state.spend, index}};
		}

		case 'spend-keys': {
			if (state.spend.keys.join('\n') === action.keys.join('\n')) {
				return state;
			}

			return {...state, spend: {...state.spend, keys: action.keys, index: Math.max(0, Math.min(state.spend.index, action.keys.length - 1))}};
		}

		case 'endpoints-on-screen': {
			return state.endpointsOnScreen.join('\n') === action.keys.join('\n') ? state : {...state, endpointsOnScreen: action.keys};
		}

		case 'help-extent': {
			if (state.overlay.type !== 'help' || state.overlay.lastScroll === action.lastScroll) {
				return state;
			}

			return {...state, overlay: {...state.overlay, lastScroll: action.lastScroll, scroll: Math.min(state.overlay.scroll, action.lastScroll)}};
		}

		case 'close-overlay': {
			return state.overlay.type === 'none' ? state : {...state, overlay: {type: 'none'}};
		}

		case 'reject-confirmation': {
			return state.overlay.type === 'confirm' ? {...state, overlay: {...state.overlay, rejected: true}} : state;
		}

		case 'input': {
			if (state.overlay.type === 'filter') {
				// The filter applies as it is typed (k9s): each key narrows the rows at once; text that is not a regex keeps the last rows.
				return withFilter({...state, overlay: {...state.overlay, input: action.input}}, action.input);
			}

			if (state.overlay.type === 'confirm') {
				return {...state, overlay: {...state.overlay, input: action.input, rejected: false}};
			}

			return state.overlay.type === 'palette' ? {...state, overlay: {type: 'palette', input: action.input, cycle: action.cycle}} : state;
		}

		case 'apply-filter': {
			// Enter keeps the filter applied as typed (the last that was a regex).
			const input = state.overlay.type === 'filter' ? state.overlay.input : filterOf(state);
			return withFilter({...state, overlay: {type: 'none'}}, input);
		}

		case 'clear-filter': {
			if (currentView(state).type === 'logs') {
				return {...state, overlay: {type: 'none'}, logs: {...state.logs, filter: ''}};
			}

			return {...state, overlay: {type: 'none'}, filter: {...state.filter, [filterPlace(state)]: ''}};
		}

		case 'message': {
			return {...state, message: action.text === undefined ? undefined : {text: action.text, tone: action.tone ?? 'info'}};
		}

		case 'pending': {
			return {...state, pending: action.text};
		}

		case 'window': {
			const place = currentPlace(state);
			const index = historyWindows.indexOf(state.windows[place]) + action.step;
			const window = historyWindows[Math.max(0, Math.min(historyWindows.length - 1, index))]!;
			return window === state.windows[place] ? state : {...state, windows: {...state.windows, [place]: window}};
		}

		case 'cursor': {
			return action.at === state.cursor ? state : {...state, cursor: action.at};
		}

		case 'switch-account': {
			return {
				...state,
				views: [{type: 'list'}],
				selected: {endpoints: unselected, pods: unselected, gpus: unselected, endpoint: unselected, workers: unselected, alerts: unselected},
				endpointFocus: 'jobs',
				overlay: {type: 'none'},
				jobEnd: undefined,
				jobStatusFilter: 'all',
				message: action.message === undefined ? undefined : {text: action.message, tone: 'info'},
				pending: undefined,
				cursor: undefined,
			};
		}

		case 'scroll-job': {
			const {lines} = action;
			const first = Math.min(Math.max(1, action.rows), lines);
			const current = Math.max(first, Math.min(lines, state.jobEnd ?? lines));
			const end = action.to === 'top' ? first : action.to === 'tail' ? lines : Math.max(first, Math.min(lines, current - (action.by ?? 0)));
			const jobEnd = end >= lines ? undefined : end;
			return jobEnd === state.jobEnd ? state : {...state, jobEnd};
		}

		case 'log-settings': {
			const changed = Object.entries(action.settings).some(([key, value]) => state.logs[key as keyof LogSettings] !== value);
			return changed ? {...state, logs: {...state.logs, ...action.settings}} : state;
		}
	}
}
