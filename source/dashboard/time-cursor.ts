import {formatClock} from '../format/clock.js';
import type {HistoryReader, PastAccount} from '../history/history-types.js';
import type {PodtopStore} from '../store/create-store.js';
import type {ViewStore} from '../view-state/view-store.js';
import {currentPlace, currentWindow, type ViewState, windowStepMs} from '../view-state/view-state.js';
import {pastState, type DisplayStore} from './display-store.js';
import {createReadAhead} from './read-ahead.js';

type Options = {
	readonly live: PodtopStore;
	readonly display: DisplayStore;
	readonly view: ViewStore;
	readonly reader: () => HistoryReader | undefined;
};

/** The pods are on screen (their pane, a pod's details): a step reads their values with the rest. */
const podsShown = (state: ViewState) => {
	const place = currentPlace(state);
	return place === 'pods' || place === 'pod';
};

/**
The cursor's last move when it was a step (`[` `]` `{` `}`: at most ten of the window's steps, not a
jump with `:at`), else 0. The first step from live is counted in whole steps from now.
*/
function stepOf(state: ViewState, from: number | undefined): number {
	const step = windowStepMs[currentWindow(state)];
	const move = from === undefined ? Math.round((state.cursor! - Date.now()) / step) * step : state.cursor! - from;
	return Math.abs(move) <= 10 * step ? move : 0;
}

/**
Keeps what the panes show in step with the time cursor: when it moves into the past, the account as
recorded then (asked of the history; a later move wins over an answer still on its way); when it
comes back, live. After a step, the moment one more such step away is read ahead while nobody types
(`read-ahead.ts`). Returns the function that stops it.
*/
export function driveTimeCursor({live, display, view, reader}: Options): () => void {
	let asked: number | undefined;
	const ahead = createReadAhead();
	const say = (text: string, tone: 'info' | 'bad' = 'info') => {
		view.dispatch({type: 'message', text, tone});
	};

	/** Shows the account history answered for `at`, and says when there was none or it is a rollup's. */
	const answered = (at: number, account: PastAccount | undefined) => {
		display.show(pastState(live.getState(), account, at));
		if (!account) {
			say(`nothing was recorded at ${formatClock(at)} (podtop was not running then): ] or . to move on`, 'bad');
		} else if (account.tier !== 'raw') {
			say(`${formatClock(at)} is older than the raw samples: figures are the ${account.tier}'s last values`);
		}
	};

	const failed = (error: unknown) => {
		say(`history: ${error instanceof Error ? error.message : String(error)}`, 'bad');
	};

	const show = async (at: number) => {
		const history = reader();
		if (!history) {
			view.dispatch({type: 'cursor', at: undefined});
			say('no history to go back in (recording is off): the dashboard stays live', 'bad');
			return;
		}

		const pods = podsShown(view.getState());
		const readAhead = ahead.take(at, pods);
		if (history.stateAtNow && !(readAhead?.answer instanceof Promise)) {
			// Read within the cursor's own move: the banner's new time and the account then are one frame
			// (awaited, the frame of the banner over the old account was drawn first, and the next waited out Ink's throttle).
			try {
				answered(at, readAhead ? readAhead.answer : history.stateAtNow(at, {pods}));
			} catch (error) {
				failed(error);
			}

			return;
		}

		view.dispatch({type: 'pending', text: `reading ${formatClock(at)}…`});
		try {
			const account = await (readAhead ? readAhead.answer : history.stateAt(at));
			if (asked === at) {
				answered(at, account);
			}
		} catch (error) {
			if (asked === at) {
				failed(error);
			}
		} finally {
			if (asked === at) {
				view.dispatch({type: 'pending', text: undefined});
			}
		}
	};

	const unsubscribe = view.subscribe((state, previous) => {
		const {cursor} = state;
		if (cursor === previous.cursor) {
			return;
		}

		asked = cursor;
		if (cursor === undefined) {
			ahead.clear();
			display.show(undefined);
			return;
		}

		void show(cursor);
		const history = reader();
		const move = stepOf(state, previous.cursor);
		if (history && move !== 0) {
			ahead.schedule(history, cursor + move, podsShown(state));
		}
	});
	return () => {
		unsubscribe();
		ahead.clear();
	};
}
