import {currentView, type View} from '../view-state/view-state.js';
import {rowMoves} from './row-moves.js';
import {defineOperation, unavailable, type Operation} from './operation.js';

const noTarget = () => undefined;

const spendWindow = (id: string, title: string, key: string, step: 1 | -1) =>
	defineOperation({
		id,
		title,
		keys: [key],
		scope: ['spend'],
		danger: 'read',
		target: noTarget,
		run({view}) {
			view.dispatch({type: 'spend-window', step});
		},
	});

/** The Spend pane: `4` or `:spend` shows it; its window keys, its rows and Enter on a pod or an endpoint. */
export const spendOperations: readonly Operation[] = [
	defineOperation({
		id: 'spend.show',
		title: 'show the Spend pane (the bills)',
		keys: ['4'],
		scope: ['global'],
		danger: 'read',
		palette: {name: 'spend', aliases: ['bills']},
		target: noTarget,
		run({view}) {
			if (currentView(view.getState()).type !== 'spend') {
				view.dispatch({type: 'open', view: {type: 'spend'}});
			}
		},
	}),
	spendWindow('spend.longer', 'a longer span of spend (24h by hour, 7d and 30d by day, 1y by month)', '>', 1),
	spendWindow('spend.shorter', 'a shorter span of spend', '<', -1),
	...rowMoves('spend', 'spend', 'move-spend', ['next resource', 'previous resource', 'the costliest resource', 'the last resource listed'], 'move'),
	defineOperation<View>({
		id: 'spend.open',
		title: 'open the pod or endpoint selected',
		keys: ['enter'],
		scope: ['spend'],
		danger: 'read',
		hint: 'open',
		footer: 'open',
		target(context) {
			const {spend} = context.view.getState();
			const key = spend.keys[spend.index];
			if (key === undefined) {
				return unavailable('no resource has spent anything in this window');
			}

			const [kind, ...rest] = key.split(':');
			const id = rest.join(':');
			if (kind === 'pod') {
				return context.store.getState().pods.byId[id] ? {type: 'pod', podId: id, showEnv: false} : unavailable('this pod is gone');
			}

			if (kind === 'endpoint') {
				return context.store.getState().endpoints.byId[id] ? {type: 'endpoint', endpointId: id} : unavailable('this endpoint is gone');
			}

			return unavailable('a network volume has no view to open');
		},
		run({view}, target) {
			view.dispatch({type: 'open', view: target});
		},
	}),
];
