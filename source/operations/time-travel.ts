import {formatAgo, formatClock} from '../format/clock.js';
import {momentHelp, parseMoment} from '../lib/time-spec.js';
import {cursorStepMs} from '../view-state/view-state.js';
import {defineOperation, unavailable, type Operation, type OperationContext} from './operation.js';

const noTarget = () => undefined;

/** The places that show history: the list panes and the details of an endpoint, a pod or a GPU type. */
const historyScope = ['lists', 'endpoint', 'pod', 'gpu'] as const;
/** Where the time cursor moves: those, and the Spend pane (the bills up to the moment). */
const cursorScope = [...historyScope, 'spend'] as const;

const readerOf = (context: OperationContext) => context.engine?.history.reader();

/**
Moves the time cursor to `at`, kept within what is recorded: before the first sample it stops at
the first; at or after now it is live again.
*/
async function moveCursor(context: OperationContext, at: number): Promise<void> {
	const {view} = context;
	const reader = readerOf(context);
	if (!reader) {
		view.dispatch({type: 'message', text: 'no history to go back in (recording is off): the dashboard stays live', tone: 'bad'});
		return;
	}

	const now = Date.now();
	if (at >= now) {
		view.dispatch({type: 'cursor', at: undefined});
		return;
	}

	const span = await reader.span();
	if (!span) {
		view.dispatch({type: 'message', text: 'nothing is recorded yet: the dashboard stays live', tone: 'bad'});
		return;
	}

	// The cursor moves first: what the move reads may say something (an older tier), and this says more.
	view.dispatch({type: 'cursor', at: Math.max(span.from, at)});
	if (at < span.from) {
		view.dispatch({
			type: 'message',
			text: `went to the oldest moment recorded, ${formatClock(span.from, now)} (${formatAgo(span.from, now)}): nothing is recorded before it`,
			tone: 'info',
		});
	}
}

const step = (id: string, title: string, keys: readonly string[], steps: number) =>
	defineOperation({
		id,
		title,
		keys,
		scope: cursorScope,
		danger: 'read',
		target: noTarget,
		async run(context) {
			const state = context.view.getState();
			const from = state.cursor ?? Date.now();
			await moveCursor(context, from + steps * cursorStepMs(state));
		},
	});

const window = (id: string, title: string, key: string, direction: 1 | -1) =>
	defineOperation({
		id,
		title,
		keys: [key],
		scope: historyScope,
		danger: 'read',
		target: noTarget,
		run({view}) {
			view.dispatch({type: 'window', step: direction});
		},
	});

/** The time window of each view and the time cursor: below's replay, in the live tool. */
export const timeTravelOperations: readonly Operation[] = [
	window('window.longer', 'show a longer span of history (10m 1h 6h 24h 7d 30d)', '>', 1),
	window('window.shorter', 'show a shorter span of history', '<', -1),
	step('cursor.back', "the account one step back in time (the window's step)", ['['], -1),
	step('cursor.forward', 'one step forward in time (past now: live)', [']'], 1),
	step('cursor.back-far', 'ten steps back in time', ['{'], -10),
	step('cursor.forward-far', 'ten steps forward in time', ['}'], 10),
	defineOperation({
		id: 'cursor.live',
		title: 'back to live',
		keys: ['.'],
		scope: ['global'],
		danger: 'read',
		palette: {name: 'live'},
		target: noTarget,
		run({view}) {
			view.dispatch({type: 'cursor', at: undefined});
		},
	}),
	defineOperation<number>({
		id: 'cursor.at',
		title: 'show the account at a time (:at 03:12, :at 45m, :at 2026-11-23T03:12)',
		keys: [],
		scope: cursorScope,
		danger: 'read',
		palette: {name: 'at'},
		target(_context, args) {
			const text = args.join(' ');
			const at = text === '' ? undefined : parseMoment(text, Date.now());
			return at === undefined ? unavailable(`:at needs ${momentHelp}`) : at;
		},
		async run(context, at) {
			await moveCursor(context, at);
		},
	}),
];
