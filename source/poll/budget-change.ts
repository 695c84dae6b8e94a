import type {BudgetState} from '../store/types.js';

/**
Whether a budget moved enough to show since `before` (undefined: it is new): a backoff starting or
ending, or use changing by a quarter of what is allowed (one cell of the header's gauge). Smaller
wobbles of a sliding window would redraw the header every second for nothing.
*/
export function budgetMoved(before: BudgetState | undefined, used: number, allowed: number, backingOff: boolean): boolean {
	return !before || (before.backoffUntil !== undefined) !== backingOff || Math.abs(before.used - used) >= Math.max(1, allowed / 4);
}
