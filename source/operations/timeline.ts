import {alertSubject, firingInOrder} from '../rows/alert-rows.js';
import {pageSize} from '../view-state/layout.js';
import {currentView, type View} from '../view-state/view-state.js';
import {defineOperation, unavailable, type Operation, type OperationContext} from './operation.js';
import {selectedKey} from './selection.js';

const noTarget = () => undefined;

/** Shows a view, unless it is on screen already. */
const show = (view: View) => (context: OperationContext) => {
	if (currentView(context.view.getState()).type !== view.type) {
		context.view.dispatch({type: 'open', view});
	}
};

const scrollEvents = (
	id: string,
	title: string,
	keys: readonly string[],
	step: (context: OperationContext) => {by?: number; to?: 'first' | 'last'},
	footer?: string,
) =>
	defineOperation({
		id,
		title,
		keys,
		scope: ['events'],
		danger: 'read',
		footer,
		target: noTarget,
		run(context) {
			context.view.dispatch({type: 'move-events', ...step(context)});
		},
	});

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
	scrollEvents('events.down', 'older event', ['j', 'down'], () => ({by: 1}), 'scroll'),
	scrollEvents('events.up', 'newer event', ['k', 'up'], () => ({by: -1})),
	scrollEvents('events.page-down', 'page down', ['pgdn'], ({view}) => ({by: pageSize(view.getState())})),
	scrollEvents('events.page-up', 'page up', ['pgup'], ({view}) => ({by: -pageSize(view.getState())})),
	scrollEvents('events.first', 'the newest event', ['g', 'home'], () => ({to: 'first'})),
	scrollEvents('events.last', 'the oldest event read', ['G', 'end'], () => ({to: 'last'})),
];
