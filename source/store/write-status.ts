import {deepEqual} from '../lib/deep-equal.js';
import type {BalanceRead} from '../model/balance.js';
import type {GetState, MonthSpend, SetState} from './state.js';
import type {BudgetState, PaneName, SourceName} from './types.js';

export type StatusWrites = {
	/** A poll cycle of one source ended: fine (`error` undefined) or failing; `keyRefused`, the status when the service refused the key. */
	readonly reportSource: (source: SourceName, at: number, error?: string, keyRefused?: number) => void;
	readonly setBudgets: (budgets: Readonly<Record<string, BudgetState>>) => void;
	/** The pane on screen: the pollers poll it at its visible cadence, the rest slower. */
	readonly setFocus: (pane: PaneName) => void;
	/** The account's balance and spend per hour as just read. */
	readonly setBalance: (balance: BalanceRead) => void;
	/** The account's bills of this month so far, as just read (for the `budget` alert). */
	readonly setMonthSpend: (monthSpend: MonthSpend) => void;
	/** Where podtop is connected, once known (the DEMO simulator picks its port and key at start). */
	readonly setService: (apiHost: string, keyFingerprint: string) => void;
};

export function statusWrites(set: SetState, get: GetState): StatusWrites {
	return {
		reportSource(source, at, error, keyRefused) {
			const current = get().connection[source];
			const next =
				error === undefined
					? {lastSuccessAt: at, lastErrorAt: current.lastErrorAt, lastError: current.lastError}
					: {...current, lastErrorAt: at, lastError: error, staleSince: current.staleSince ?? at};
			const refused = get().keyRefused;
			// Another failure (a timeout) says nothing of the key: only a success clears a refusal.
			const status = error === undefined ? undefined : (keyRefused ?? refused[source]);
			set({
				connection: {...get().connection, [source]: next},
				...(refused[source] === status ? {} : {keyRefused: {...refused, [source]: status}}),
			});
		},
		setBudgets(budgets) {
			if (!deepEqual(get().budgets, budgets)) {
				set({budgets});
			}
		},
		setBalance(balance) {
			if (!deepEqual(get().balance, balance)) {
				set({balance});
			}
		},
		setMonthSpend(monthSpend) {
			// Its read time too: a forecast runs from it (one write per read, every 5 minutes).
			set({monthSpend});
		},
		setService(apiHost, keyFingerprint) {
			if (get().apiHost !== apiHost || get().keyFingerprint !== keyFingerprint) {
				set({apiHost, keyFingerprint});
			}
		},
		setFocus(pane) {
			if (get().focus !== pane) {
				set({focus: pane});
			}
		},
	};
}
