import {createStore, type StoreApi} from 'zustand/vanilla';
import {viewReducer, type ViewAction} from './view-reducer.js';
import type {ViewState} from './view-state.js';

/** The dashboard's one UI-state owner: the reducer's state, read at once by keys, subscribed to by components. */
export type ViewStore = Pick<StoreApi<ViewState>, 'getState' | 'subscribe' | 'getInitialState'> & {
	readonly dispatch: (action: ViewAction) => void;
};

export function createViewStore(initial: ViewState): ViewStore {
	const store = createStore<ViewState>()(() => initial);
	return {
		getState: store.getState,
		getInitialState: store.getInitialState,
		subscribe: store.subscribe,
		dispatch(action) {
			const next = viewReducer(store.getState(), action);
			if (next !== store.getState()) {
				store.setState(next, true);
			}
		},
	};
}
