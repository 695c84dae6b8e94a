import {formatClock} from '../format/clock.js';
import type {HistoryReader, PastAccount} from '../history/history-types.js';
import type {PodtopStore} from '../store/create-store.js';
import type {ViewStore} from '../view-state/view-store.js';
import {currentPlace, type ViewState} from '../view-state/view-state.js';
import {pastState, type DisplayStore} from './display-store.js';

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
Keeps what the panes show in step with the time cursor: when it moves into the past, the account as
recorded then (asked of the history; a later move wins over an answer still on its way); when it
comes back, live. Returns the function that stops it.
*/
export function driveTimeCursor({live, display, view, reader}: Options): () => void {
	let asked: number | undefined;
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

		if (history.stateAtNow) {
			// Read within the cursor's own move: the banner's new time and the account then are one frame
			// (awaited, the frame of the banner over the old account was drawn first, and the next waited out Ink's throttle).
			try {
				answered(at, history.stateAtNow(at, {pods: podsShown(view.getState())}));
			} catch (error) {
				failed(error);
			}

			return;
		}

		view.dispatch({type: 'pending', text: `reading ${formatClock(at)}…`});
		try {
			const account = await history.stateAt(at);
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

	const unsubscribe = view.subscribe(({cursor}, previous) => {
		if (cursor === previous.cursor) {
			return;
		}

		asked = cursor;
		if (cursor === undefined) {
			display.show(undefined);
			return;
		}

		void show(cursor);
	});
	return unsubscribe;
}
