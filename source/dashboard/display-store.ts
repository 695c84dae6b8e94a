import type {PastAccount} from '../history/history-types.js';
import type {PodtopStore} from '../store/create-store.js';
import type {PodtopState} from '../store/state.js';
import type {WorkersState} from '../store/worker-track.js';

/**
What the panes read: the live store, or while the time cursor is in the past the account as it
was then. Panes, rows and keys read it like the store itself and cannot tell; the live store goes on
being polled underneath, unseen until the cursor comes back.
*/
export type DisplayStore = PodtopStore & {
	/** Shows the account as it was (undefined: live again). */
	readonly show: (past: PodtopState | undefined) => void;
	readonly stop: () => void;
};

type Listener = (state: PodtopState, previous: PodtopState) => void;

export function createDisplayStore(live: PodtopStore): DisplayStore {
	let past: PodtopState | undefined;
	const listeners = new Set<Listener>();
	const tell = (state: PodtopState, previous: PodtopState) => {
		for (const listener of listeners) {
			listener(state, previous);
		}
	};

	const unsubscribe = live.subscribe((state, previous) => {
		if (!past) {
			tell(state, previous);
		}
	});
	return {
		getState: () => past ?? live.getState(),
		getInitialState: live.getInitialState,
		subscribe(listener) {
			listeners.add(listener);
			return () => {
				listeners.delete(listener);
			};
		},
		show(next) {
			const previous = past ?? live.getState();
			past = next;
			const current = past ?? live.getState();
			if (current !== previous) {
				tell(current, previous);
			}
		},
		stop: unsubscribe,
	};
}

/** The workers as recorded then (read when first asked); an endpoint whose workers were not read then says so. */
function pastWorkers(account: PastAccount | undefined): WorkersState {
	if (!account?.workers) {
		return {byEndpoint: {}, rollouts: {}, errors: {}, unavailable: account ? 'workers are not in this history' : 'nothing recorded then'};
	}

	let errors: Record<string, string> | undefined;
	return {
		get byEndpoint() {
			return account.workers ?? {};
		},
		rollouts: {},
		get errors() {
			errors ??= Object.fromEntries(account.endpoints.order.filter(id => !account.workers?.[id]).map(id => [id, 'none recorded then (not being read)']));
			return errors;
		},
	};
}

/**
The store's state as it was: the account's collections and alerts from history, with what is not
the account's (the mode, the key's fingerprint, budgets, tracked jobs) as it is now. Data of that
moment counts as fresh then: no DEGRADED banner for an old picture.
*/
export function pastState(live: PodtopState, account: PastAccount | undefined, at: number): PodtopState {
	const empty = {byId: {}, order: [], updatedAt: at};
	return {
		...live,
		endpoints: account?.endpoints ?? empty,
		pods: account?.pods ?? empty,
		gpus: account?.gpus ?? empty,
		podDetail: undefined,
		serverlessDiscount: account?.serverlessDiscount ?? live.serverlessDiscount,
		connection: {jobApi: {lastSuccessAt: at}, graphql: {lastSuccessAt: at}},
		alerts: account?.alerts ?? [],
		workers: pastWorkers(account),
	};
}
