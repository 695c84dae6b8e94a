import {alertSubject, firingInOrder} from '../rows/alert-rows.js';
import {currentView, type View} from '../view-state/view-state.js';
import {rowMoves} from './row-moves.js';
import {defineOperation, unavailable, type Operation, type OperationContext} from './operation.js';
import {selectedKey} from './selection.js';

const noTarget = () => undefined;

/** Shows a view, unless it is on screen already. */
const show = (view: View) => (context: OperationContext) => {
	if (currentView(context.view.getState()).type !== view.type) {
		context.view.dispatch({type: 'open', view});
	}
};

/** The alerts firing now and the recorded events, read in the dashboard: `:alerts`, `:events`, and what their views' keys do. */
export const timelineOperations: readonly Operation[] = [
	defineOperation({
		id: 'alerts.show',
		title: 'the alerts firing now (Enter opens one)',
		keys: [],
		scope: ['global'],
		danger: 'read',
		palette: {name: 'alerts'},
		target: noTarget,
		run: show({type: 'alerts'}),
	}),
	defineOperation({
		id: 'events.show',
		title: 'the recorded events, newest first',
		keys: [],
		scope: ['global'],
		danger: 'read',
		palette: {name: 'events'},
		target: noTarget,
		run: show({type: 'events'}),
	}),
	defineOperation<View>({
		id: 'alert.open',
		title: 'open the endpoint, pod or GPU type the alert is about',
		keys: ['enter'],
		scope: ['alerts'],
		danger: 'read',
		hint: 'open',
		footer: 'open',
		target(context) {
			const state = context.store.getState();
			const id = selectedKey(context);
			const alert = firingInOrder(state.alerts).find(firing => firing.id === id);
			if (!alert) {
				return unavailable('no alert is firing');
			}

			const subject = alertSubject(state, alert);
			if (!subject) {
				return unavailable(alert.subject === 'account' ? 'this alert is about the account: nothing to open' : 'what this alert is about is gone');
			}

			return subject.type === 'endpoint'
				? {type: 'endpoint', endpointId: subject.id}
				: subject.type === 'pod'
					? {type: 'pod', podId: subject.id, showEnv: false}
					: {type: 'gpu', gpuId: subject.id};
		},
		run({view}, target) {
			view.dispatch({type: 'open', view: target});
		},
	}),
	...rowMoves('events', 'events', 'move-events', ['older event', 'newer event', 'the newest event', 'the oldest event read'], 'scroll'),
];
