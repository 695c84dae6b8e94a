import type {LogSubject} from '../model/log-session.js';
import {initialLogSettings, type LogSettings} from './log-settings.js';

export type ListPane = 'endpoints' | 'pods' | 'gpus';
export const listPanes: readonly ListPane[] = ['endpoints', 'pods', 'gpus'];

/** What the body shows: a list pane, an endpoint's details, or one job's stream. */
export type View =
	| {readonly type: 'list'}
	| {readonly type: 'endpoint'; readonly endpointId: string}
	| {readonly type: 'gpu'; readonly gpuId: string}
	| {readonly type: 'pod'; readonly podId: string; readonly showEnv: boolean}
	| {readonly type: 'job'; readonly endpointId: string; readonly jobId: string}
	/** One worker of an endpoint, listed now or gone: its record, status changes, the jobs it served. */
	| {readonly type: 'worker'; readonly endpointId: string; readonly workerId: string}
	/** A pod's, a worker's or an endpoint's workers' log; `label` names it in the title (sanitised where shown). */
	| {readonly type: 'logs'; readonly subject: LogSubject; readonly label: string}
	/** The alerts firing now (`:alerts`). */
	| {readonly type: 'alerts'}
	/** The recorded events, newest first (`:events`). */
	| {readonly type: 'events'}
	/** The account's spend from the service's bills (`4`, `:spend`). */
	| {readonly type: 'spend'};

/** Where the user is, for key dispatch and help: a list pane, or a drilled-down view. */
export type Place = ListPane | 'endpoint' | 'gpu' | 'pod' | 'job' | 'worker' | 'logs' | 'alerts' | 'events' | 'spend';

/** The spans the Spend pane shows, `<` and `>` step through them: 24h by hour, 7d and 30d by day, 1y by month. */
export const spendWindows = ['24h', '7d', '30d', '1y'] as const;
export type SpendWindowName = (typeof spendWindows)[number];

/** The places whose rows are filtered with `/`: the list panes and the events timeline. */
export type FilterPlace = ListPane | 'events';

/** A write waiting for the user's word: y/N, or the name typed out for destructive ones. */
export type Confirmation = {
	readonly operationId: string;
	/** What the operation acts on, taken when the key was pressed. */
	readonly target: unknown;
	readonly prompt: string;
	/** The text to type (an endpoint's or pod's name); undefined asks y/N. */
	readonly typeToConfirm?: string;
	/** A second answer to a y/N question: its key runs another operation on the same target (the test job's `c`: a chat instead). */
	readonly alternative?: {readonly key: string; readonly label: string; readonly operationId: string};
};

/** A form being filled in: the values by field name, which field has focus, and the cursor in it. */
export type FormOverlay = {
	readonly type: 'form';
	/** The operation that sends what the form makes, after its confirmation. */
	readonly operationId: string;
	readonly target: unknown;
	readonly formId: string;
	/** Where the values are kept when the form closes, so `n` again brings them back. */
	readonly draftKey: string;
	readonly values: Readonly<Record<string, string>>;
	/** Index into the fields shown; one past the last is the Send button. */
	readonly focus: number;
	readonly cursor: number;
};

export type Overlay =
	| {readonly type: 'none'}
	/** `scroll` is the first row shown when the keys do not fit; `lastScroll` is what the overlay found it can show. */
	| {readonly type: 'help'; readonly scroll: number; readonly lastScroll: number}
	| {readonly type: 'filter'; readonly input: string}
	/** `cycle`: Tab is going round the candidates of the word typed (the next Tab puts in the next). */
	| {readonly type: 'palette'; readonly input: string; readonly cycle?: PaletteCycle}
	| ConfirmOverlay
	| FormOverlay;

/** Tab going round the candidates of one palette word: the input before the word, the candidates, and the one in the input now. */
export type PaletteCycle = {readonly head: string; readonly candidates: readonly string[]; readonly index: number};

/**
A question on screen. A typed one stays open until the text matches or Esc: `rejected` says Enter
was pressed on text that does not match (shown as refused; the next character typed replaces it).
*/
export type ConfirmOverlay = {readonly type: 'confirm'; readonly input: string; readonly rejected?: boolean} & Confirmation;

/** Whether a confirmation may go ahead: a y/N question on its key, a typed one only on the exact text. */
export const confirmationMatches = (overlay: Pick<ConfirmOverlay, 'input' | 'typeToConfirm'>) =>
	overlay.typeToConfirm === undefined || overlay.input === overlay.typeToConfirm;

/** The spans a view's history can cover, narrowest first: `<` and `>` step through them. */
export const historyWindows = ['10m', '1h', '6h', '24h', '7d', '30d'] as const;
export type HistoryWindow = (typeof historyWindows)[number];

export const windowMs: Readonly<Record<HistoryWindow, number>> = {
	'10m': 600_000,
	'1h': 3_600_000,
	'6h': 6 * 3_600_000,
	'24h': 24 * 3_600_000,
	'7d': 7 * 86_400_000,
	'30d': 30 * 86_400_000,
};

/** How far `[` and `]` move the time cursor in each window (`{` `}` ten times that). */
export const windowStepMs: Readonly<Record<HistoryWindow, number>> = {
	'10m': 10_000,
	'1h': 60_000,
	'6h': 300_000,
	'24h': 900_000,
	'7d': 3_600_000,
	'30d': 6 * 3_600_000,
};

/** How far `[` and `]` move the time cursor in the Spend pane: a bucket of its window (a month as 30 days). */
export const spendStepMs: Readonly<Record<SpendWindowName, number>> = {
	'24h': 3_600_000,
	'7d': 86_400_000,
	'30d': 86_400_000,
	'1y': 30 * 86_400_000,
};

/** Which tracked jobs the endpoint details list, by status. */
export const jobStatusFilters = ['all', 'active', 'completed', 'failed', 'cancelled'] as const;
export type JobStatusFilter = (typeof jobStatusFilters)[number];

/** Which table of the endpoint details j/k and Enter act on (`w` switches). */
export type EndpointFocus = 'jobs' | 'workers';

export type SortState = {readonly column: number; readonly descending: boolean};

/** The selected row: its key keeps it selected while rows move; the index is where to land when it goes. */
export type Selection = {readonly key: string | undefined; readonly index: number};

export type ViewState = {
	readonly columns: number;
	readonly rows: number;
	readonly pane: ListPane;
	/** Drill-down stack; the last is shown. */
	readonly views: readonly View[];
	/** `endpoint`: the details' tracked jobs; `workers`: its workers (listed, then gone). */
	readonly selected: Readonly<Record<ListPane | 'endpoint' | 'workers' | 'alerts', Selection>>;
	readonly endpointFocus: EndpointFocus;
	readonly sort: Readonly<Record<ListPane, SortState>>;
	readonly filter: Readonly<Record<FilterPlace, string>>;
	/** The row selected in the events timeline (0: the newest shown), and how many rows it shows (the view says, as it reads them). */
	readonly events: {readonly index: number; readonly count: number};
	/** The Spend pane's span, and its costliest resources: the row selected and their keys (`pod:<id>`, `endpoint:<id>`, `volume:<id>`; the pane says, as it reads them). */
	readonly spend: {readonly window: SpendWindowName; readonly index: number; readonly keys: readonly string[]};
	readonly overlay: Overlay;
	/** The endpoints the Endpoints pane has on screen now (the header says how old their data is). */
	readonly endpointsOnScreen: readonly string[];
	/**
	Where the paused job view ends: one past its last line shown, counted from its first line, so the
	same lines stay on screen as more arrive. Undefined follows the tail.
	*/
	readonly jobEnd: number | undefined;
	readonly jobStatusFilter: JobStatusFilter;
	/** The log view's place, filter and layout (a log view opened anew starts following, unfiltered). */
	readonly logs: LogSettings;
	/** A one-line message for the footer (a command's result or error). */
	readonly message: {readonly text: string; readonly tone: 'info' | 'good' | 'bad'} | undefined;
	/** A write in flight, shown with a spinner until its result replaces it. */
	readonly pending: string | undefined;
	/** Form values kept when a form closes (sent, cancelled or refused), by draft key. */
	readonly drafts: Readonly<Record<string, Readonly<Record<string, string>>>>;
	/** The span of history each place shows (its charts, its trend column); the Spend pane's is in `spend.window`. */
	readonly windows: Readonly<Record<Place, HistoryWindow>>;
	/** The moment the dashboard shows (ms since the epoch); undefined: live. */
	readonly cursor: number | undefined;
};

const none: Selection = {key: undefined, index: 0};

/** Default sort per pane: endpoints and GPUs by name, pods by status (attention first, exited last). */
export const defaultSort: Readonly<Record<ListPane, SortState>> = {
	endpoints: {column: 0, descending: false},
	pods: {column: 2, descending: false},
	gpus: {column: 0, descending: false},
};

export function initialViewState(options: {
	readonly columns: number;
	readonly rows: number;
	readonly views?: readonly View[];
	readonly message?: string;
}): ViewState {
	return {
		columns: options.columns,
		rows: options.rows,
		pane: 'endpoints',
		views: options.views ?? [{type: 'list'}],
		selected: {endpoints: none, pods: none, gpus: none, endpoint: none, workers: none, alerts: none},
		endpointFocus: 'jobs',
		sort: defaultSort,
		filter: {endpoints: '', pods: '', gpus: '', events: ''},
		events: {index: 0, count: 0},
		spend: {window: '24h', index: 0, keys: []},
		overlay: {type: 'none'},
		endpointsOnScreen: [],
		jobEnd: undefined,
		jobStatusFilter: 'all',
		logs: initialLogSettings,
		message: options.message ? {text: options.message, tone: 'info'} : undefined,
		pending: undefined,
		drafts: {},
		windows: {
			endpoints: '1h',
			pods: '1h',
			gpus: '6h',
			endpoint: '1h',
			pod: '1h',
			gpu: '24h',
			job: '10m',
			worker: '24h',
			logs: '10m',
			alerts: '1h',
			events: '24h',
			spend: '24h',
		},
		cursor: undefined,
	};
}

/** How far `[` and `]` move the time cursor on the place on screen. */
export function cursorStepMs(state: ViewState): number {
	return currentView(state).type === 'spend' ? spendStepMs[state.spend.window] : windowStepMs[currentWindow(state)];
}

/** The window of the place on screen. */
export function currentWindow(state: ViewState): HistoryWindow {
	return state.windows[currentPlace(state)];
}

export function currentView(state: ViewState): View {
	return state.views.at(-1) ?? {type: 'list'};
}

/** Where `/` filters now: the events timeline when it is on screen, otherwise the list pane. */
export function filterPlace(state: ViewState): FilterPlace {
	return currentView(state).type === 'events' ? 'events' : state.pane;
}

export function currentPlace(state: ViewState): Place {
	const view = currentView(state);
	return view.type === 'list' ? state.pane : view.type;
}

/** The filter of the place on screen: the log view's, the events timeline's, or the list pane's. */
export const filterOf = (state: ViewState): string => (currentView(state).type === 'logs' ? state.logs.filter : state.filter[filterPlace(state)]);
