import type {AlertRule} from '../config/alert-rules.js';
import {holdingNow} from '../store/alert-conditions.js';
import type {PodtopStore, StoreWrites} from '../store/create-store.js';
import {naturalCompare} from '../lib/natural-compare.js';
import type {PodtopState} from '../store/state.js';
import type {FiringAlert} from '../store/types.js';
import {createLoop, type Loop} from './loop.js';

export type AlertChange = {readonly state: 'firing' | 'resolved'; readonly alert: FiringAlert; readonly at: number};

type Options = {
	readonly store: PodtopStore;
	readonly writes: StoreWrites;
	readonly rules: readonly AlertRule[];
	/** Each firing and each resolution, once. */
	readonly onChange?: (change: AlertChange) => void;
	readonly intervalMs?: number;
	readonly now?: () => number;
};

const holdFor = (rule: AlertRule) => (rule.kind === 'queue' || rule.kind === 'idle-pod' || rule.kind === 'latency' ? rule.forMs : 0);

/**
The rules' state from one look to the next: `evaluate` says which alerts fire in a state at a time
(a condition that has held on a subject for its rule's time), and tells `onChange` of each firing
and each resolution once.
*/
export function createAlertEvaluator(rules: readonly AlertRule[], onChange?: (change: AlertChange) => void) {
	/** Since when each (rule, subject) has held. */
	let holding = new Map<string, number>();
	let firing: readonly FiringAlert[] = [];
	return (state: PodtopState, at: number): readonly FiringAlert[] => {
		const previous = new Map(firing.map(alert => [alert.id, alert]));
		const next = new Map<string, number>();
		const now: FiringAlert[] = [];
		for (const [index, rule] of rules.entries()) {
			for (const {subject, subjectName, message} of holdingNow(rule, state, at)) {
				const id = `${index}:${rule.name}@${subject}`;
				const since = holding.get(id) ?? at;
				next.set(id, since);
				if (at - since >= holdFor(rule)) {
					now.push({id, rule: rule.name, kind: rule.kind, subject, subjectName, message, since, firedAt: previous.get(id)?.firedAt ?? at});
				}
			}
		}

		holding = next;
		now.sort((a, b) => a.firedAt - b.firedAt || naturalCompare(a.id, b.id));
		firing = now;
		for (const alert of now) {
			if (!previous.has(alert.id)) {
				onChange?.({state: 'firing', alert, at});
			}
		}

		const still = new Set(now.map(alert => alert.id));
		for (const alert of previous.values()) {
			if (!still.has(alert.id)) {
				onChange?.({state: 'resolved', alert, at});
			}
		}

		return now;
	};
}

/** Evaluates the alert rules against the store every second and writes the firing ones to it (the banner, `watch`'s events). */
export function createAlertLoop({store, writes, rules, onChange, intervalMs = 1000, now = Date.now}: Options): Loop {
	const evaluate = createAlertEvaluator(rules, onChange);
	return createLoop(
		async () => {
			writes.setAlerts(evaluate(store.getState(), now()));
		},
		() => intervalMs,
	);
}
