import type {BudgetSnapshot} from './rate-budget.js';

/**
Whether budgets moved enough to show: a backoff starting or ending, a budget appearing, or use
changing by a quarter of what is allowed (one cell of the header's gauge). Smaller wobbles of a
sliding window would redraw the header every second for nothing.
*/
export function budgetsChanged(previous: Readonly<Record<string, BudgetSnapshot>>, next: Readonly<Record<string, BudgetSnapshot>>): boolean {
	const keys = Object.keys(next);
	if (keys.length !== Object.keys(previous).length) {
		return true;
	}

	return keys.some(key => {
		const before = previous[key];
		const after = next[key]!;
		return (
			!before ||
			(before.backoffUntil === undefined) !== (after.backoffUntil === undefined) ||
			Math.abs(before.used - after.used) >= Math.max(1, after.allowed / 4)
		);
	});
}
