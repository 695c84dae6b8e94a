import {grouped} from '../rows/log-state-text.js';
import {saveLog} from '../history/saved-log.js';
import {logLayout, logSelection, logTextRows} from '../rows/log-view-model.js';
import {scrolledEnd} from '../rows/log-window.js';
import {frameLayout} from '../view-state/layout.js';
import {nextLogContext, nextLogSource, type LogSettings} from '../view-state/log-settings.js';
import {currentView} from '../view-state/view-state.js';
import {openSession} from './log-slot.js';
import {defineOperation, unavailable, type Operation, type OperationContext} from './operation.js';

const noTarget = () => undefined;

/** Where a scroll leaves the view: the anchor it ends at, from the session's lines as the view lays them out now. */
function scroll(context: OperationContext, step: (rows: number) => {by?: number; to?: 'top' | 'tail'}): void {
	const state = context.view.getState();
	const view = currentView(state);
	const session = openSession(context.logs);
	if (!session || view.type !== 'logs') {
		return;
	}

	const snapshot = session.snapshot();
	const {width, bodyHeight} = frameLayout(state, 0);
	const height = logTextRows(bodyHeight);
	const {shown} = logSelection(snapshot, state.logs);
	const layout = logLayout(state.logs, snapshot.query, view.subject, width, Date.now());
	context.view.dispatch({type: 'log-settings', settings: {end: scrolledEnd(shown, state.logs.end, height, layout, step(height))}});
}

const scrolling = (id: string, title: string, keys: readonly string[], step: (rows: number) => {by?: number; to?: 'top' | 'tail'}, footer?: string) =>
	defineOperation({
		id,
		title,
		keys,
		scope: ['logs'],
		danger: 'read',
		footer,
		target: noTarget,
		run(context) {
			scroll(context, step);
		},
	});

const toggle = (id: string, title: string, key: string, change: (settings: LogSettings) => Partial<LogSettings>, hint?: string) =>
	defineOperation({
		id,
		title,
		keys: [key],
		scope: ['logs'],
		danger: 'read',
		hint,
		target: noTarget,
		run({view}) {
			view.dispatch({type: 'log-settings', settings: change(view.getState().logs)});
		},
	});

/** The log view's keys: scrolling (up pauses, G follows), the filter and its context, the layout, the source, and saving. */
export const logViewOperations: readonly Operation[] = [
	scrolling('logs.up', 'scroll up (pauses: the view holds still as lines arrive)', ['k', 'up'], () => ({by: 1}), 'scroll'),
	scrolling('logs.down', 'scroll down (to the last line: follows again)', ['j', 'down'], () => ({by: -1})),
	scrolling('logs.page-up', 'page up', ['pgup'], rows => ({by: rows})),
	scrolling('logs.page-down', 'page down', ['pgdn'], rows => ({by: -rows})),
	scrolling('logs.top', 'the first line buffered', ['g', 'home'], () => ({to: 'top'})),
	scrolling('logs.follow', 'follow the tail again', ['G', 'end'], () => ({to: 'tail'}), 'follow'),
	defineOperation({
		id: 'logs.filter',
		title: 'filter the lines as you type (a regex; a leading ! inverts), matches highlighted',
		keys: ['/'],
		scope: ['logs'],
		danger: 'read',
		footer: 'filter',
		target: noTarget,
		run({view}) {
			view.dispatch({type: 'open-overlay', overlay: 'filter'});
		},
	}),
	toggle('logs.context', 'lines of context around each match: 0, 2, 5', 'c', settings => ({context: nextLogContext(settings.context)}), 'context'),
	toggle('logs.wrap', 'wrap long lines, or cut them', 'w', settings => ({wrap: !settings.wrap}), 'wrap'),
	toggle('logs.timestamps', "show each line's time, or not", 't', settings => ({timestamps: !settings.timestamps}), 'time'),
	toggle('logs.json', 'pretty-print JSON lines, or show them as sent', 'J', settings => ({json: !settings.json}), 'json'),
	defineOperation({
		id: 'logs.source',
		title: "follow the container's lines, the system's, or both",
		keys: ['s'],
		scope: ['logs'],
		danger: 'read',
		hint: 'source',
		target: noTarget,
		run({view, logs}) {
			const source = nextLogSource(view.getState().logs.source);
			view.dispatch({type: 'log-settings', settings: {source}});
			openSession(logs)?.setSource(source);
			view.dispatch({type: 'message', text: `following ${source === undefined ? "the container's and the system's lines" : `the ${source}'s lines`}`});
		},
	}),
	defineOperation<{readonly name: string}>({
		id: 'logs.save',
		title: "save the lines buffered to a private file (0600) in podtop's state folder",
		keys: ['ctrl-s'],
		scope: ['logs'],
		danger: 'read',
		hint: 'save',
		target({view, logs}) {
			const current = currentView(view.getState());
			return current.type === 'logs' && openSession(logs) ? {name: current.label} : unavailable('nothing to save yet: the log is not open');
		},
		async run({view, logs}, {name}) {
			const lines = openSession(logs)?.snapshot().lines ?? [];
			const path = await saveLog(lines, name);
			view.dispatch({type: 'message', text: `saved ${grouped(lines.length)} ${lines.length === 1 ? 'line' : 'lines'} to ${path} (0600)`, tone: 'good'});
		},
	}),
	defineOperation({
		id: 'logs.back',
		title: 'clear the filter, or back to the previous view',
		keys: ['esc'],
		scope: ['logs'],
		danger: 'read',
		hint: 'back',
		footer: 'back',
		target: noTarget,
		run({view}) {
			view.dispatch(view.getState().logs.filter === '' ? {type: 'back'} : {type: 'clear-filter'});
		},
	}),
];
