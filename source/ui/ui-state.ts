export type ListPane = 'endpoints' | 'pods' | 'gpus';
export const listPanes: readonly ListPane[] = ['endpoints', 'pods', 'gpus'];

export type View =
	| {readonly type: 'list'}
	| {readonly type: 'endpoint'; readonly endpointId: string}
	| {readonly type: 'job'; readonly jobKey: string};

export type Overlay = 'none' | 'help' | 'palette' | 'filter';

export type SortState = {readonly column: number; readonly descending: boolean};

export type UiState = {
	readonly pane: ListPane;
	/** Drill-down stack; the last is shown. */
	readonly views: readonly View[];
	readonly selected: Readonly<Record<ListPane, number>>;
	/** Selection inside the endpoint detail's job list. */
	readonly detailSelected: number;
	readonly sort: Readonly<Record<ListPane, SortState>>;
	readonly filter: Readonly<Record<ListPane, string>>;
	readonly overlay: Overlay;
	/** What is being typed in the palette or the filter bar. */
	readonly input: string;
	/** A one-line message for the footer (a command's result or error). */
	readonly message: string | undefined;
};

export const initialUiState: UiState = {
	pane: 'endpoints',
	views: [{type: 'list'}],
	selected: {endpoints: 0, pods: 0, gpus: 0},
	detailSelected: 0,
	sort: {endpoints: {column: 0, descending: false}, pods: {column: 0, descending: false}, gpus: {column: 0, descending: false}},
	filter: {endpoints: '', pods: '', gpus: ''},
	overlay: 'none',
	input: '',
	message: undefined,
};

export type UiAction =
	| {readonly type: 'switch-pane'; readonly pane: ListPane}
	| {readonly type: 'next-pane'; readonly step: 1 | -1}
	| {readonly type: 'move'; readonly by: number; readonly count: number}
	| {readonly type: 'move-to'; readonly index: number; readonly count: number}
	| {readonly type: 'open'; readonly view: View}
	| {readonly type: 'back'}
	| {readonly type: 'sort-next'; readonly columns: number}
	| {readonly type: 'sort-reverse'}
	| {readonly type: 'overlay'; readonly overlay: Overlay}
	| {readonly type: 'input'; readonly input: string}
	| {readonly type: 'apply-filter'}
	| {readonly type: 'clear-filter'}
	| {readonly type: 'message'; readonly message: string | undefined};

const clamp = (value: number, count: number) => Math.max(0, Math.min(count - 1, value));

export function currentView(state: UiState): View {
	return state.views.at(-1)!;
}

/** All UI state changes: pure, so keys never wait for anything and tests need no terminal. */
export function uiReducer(state: UiState, action: UiAction): UiState {
	switch (action.type) {
		case 'switch-pane': {
			return {...state, pane: action.pane, views: [{type: 'list'}], message: undefined};
		}

		case 'next-pane': {
			const index = (listPanes.indexOf(state.pane) + action.step + listPanes.length) % listPanes.length;
			return {...state, pane: listPanes[index]!, views: [{type: 'list'}], message: undefined};
		}

		case 'move':
		case 'move-to': {
			const view = currentView(state);
			const base = view.type === 'endpoint' ? state.detailSelected : state.selected[state.pane];
			const next = clamp(action.type === 'move' ? base + action.by : action.index, action.count);
			return view.type === 'endpoint' ? {...state, detailSelected: next} : {...state, selected: {...state.selected, [state.pane]: next}};
		}

		case 'open': {
			return {...state, views: [...state.views, action.view], detailSelected: action.view.type === 'endpoint' ? 0 : state.detailSelected, message: undefined};
		}

		case 'back': {
			return state.views.length > 1 ? {...state, views: state.views.slice(0, -1), message: undefined} : state;
		}

		case 'sort-next': {
			const current = state.sort[state.pane];
			return {...state, sort: {...state.sort, [state.pane]: {column: (current.column + 1) % action.columns, descending: current.descending}}};
		}

		case 'sort-reverse': {
			const current = state.sort[state.pane];
			return {...state, sort: {...state.sort, [state.pane]: {...current, descending: !current.descending}}};
		}

		case 'overlay': {
			const input = action.overlay === 'filter' ? state.filter[state.pane] : '';
			return {...state, overlay: action.overlay, input};
		}

		case 'input': {
			return {...state, input: action.input};
		}

		case 'apply-filter': {
			return {...state, overlay: 'none', filter: {...state.filter, [state.pane]: state.input}, selected: {...state.selected, [state.pane]: 0}};
		}

		case 'clear-filter': {
			return {...state, overlay: 'none', input: '', filter: {...state.filter, [state.pane]: ''}};
		}

		case 'message': {
			return {...state, message: action.message};
		}
	}
}

/**
`/` filter: a case-insensitive regex over the row's text; a leading `!` inverts it. An invalid
regex is matched as plain text, so typing never breaks the list.
*/
export function filterMatcher(filter: string): (text: string) => boolean {
	const inverted = filter.startsWith('!');
	const pattern = inverted ? filter.slice(1) : filter;
	if (!pattern) {
		return () => true;
	}

	let test: (text: string) => boolean;
	try {
		const regex = new RegExp(pattern, 'i');
		test = text => regex.test(text);
	} catch {
		const needle = pattern.toLowerCase();
		test = text => text.toLowerCase().includes(needle);
	}

	return inverted ? text => !test(text) : test;
}
