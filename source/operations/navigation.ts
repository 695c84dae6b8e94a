import {pageSize} from '../view-state/layout.js';
import {listPanes, type ListPane} from '../view-state/view-state.js';
import {defineOperation, unavailable, type Operation, type OperationContext} from './operation.js';
import {rowKeys, selectedIn} from './selection.js';

const noTarget = () => undefined;

const paneOperation = (pane: ListPane, key: string, aliases: readonly string[]) =>
	defineOperation({
		id: `pane.${pane}`,
		title: `show the ${pane === 'gpus' ? 'GPUs' : pane[0]!.toUpperCase() + pane.slice(1)} pane`,
		keys: [key],
		scope: ['global'],
		danger: 'read',
		palette: {name: pane, aliases},
		target: noTarget,
		run({view}) {
			view.dispatch({type: 'switch-pane', pane});
		},
	});

const move = (id: string, title: string, keys: readonly string[], step: (context: OperationContext) => {by?: number; to?: 'first' | 'last'}, footer?: string) =>
	defineOperation({
		id,
		title,
		keys,
		scope: ['lists', 'endpoint', 'alerts'],
		danger: 'read',
		footer,
		target: noTarget,
		run(context) {
			context.view.dispatch({type: 'move', keys: rowKeys(context), ...step(context)});
		},
	});

/** Panes, movement, filter, sort, overlays and quitting: the operations every view shares. */
export const navigationOperations: readonly Operation[] = [
	...listPanes.map((pane, index) => paneOperation(pane, String(index + 1), {endpoints: ['ep'], pods: ['po'], gpus: ['gpu']}[pane])),
	defineOperation({
		id: 'quit',
		title: 'quit (the terminal is restored)',
		keys: ['q', 'ctrl-c'],
		scope: ['global'],
		danger: 'read',
		palette: {name: 'quit', aliases: ['q']},
		footer: 'quit',
		target: noTarget,
		run({exit}) {
			exit();
		},
	}),
	defineOperation({
		id: 'help',
		title: 'all the keys of this view',
		keys: ['?'],
		scope: ['global'],
		danger: 'read',
		palette: {name: 'help'},
		footer: 'help',
		target: noTarget,
		run({view}) {
			view.dispatch({type: 'open-overlay', overlay: 'help'});
		},
	}),
	defineOperation({
		id: 'palette',
		title: 'command palette (Tab completes)',
		keys: [':'],
		scope: ['global'],
		danger: 'read',
		footer: 'command',
		target: noTarget,
		run({view}) {
			view.dispatch({type: 'open-overlay', overlay: 'palette'});
		},
	}),
	defineOperation({
		id: 'refresh',
		title: 'refresh everything now',
		keys: ['r'],
		scope: ['global'],
		danger: 'read',
		palette: {name: 'refresh'},
		target: noTarget,
		run({engine, view}) {
			engine?.refresh();
			view.dispatch({type: 'message', text: engine ? 'refreshing…' : 'still connecting to the service…'});
		},
	}),
	defineOperation({
		id: 'pane.next',
		title: 'next pane',
		keys: ['tab'],
		scope: ['global'],
		danger: 'read',
		target: noTarget,
		run({view}) {
			view.dispatch({type: 'next-pane', step: 1});
		},
	}),
	defineOperation({
		id: 'pane.previous',
		title: 'previous pane',
		keys: ['shift-tab'],
		scope: ['global'],
		danger: 'read',
		target: noTarget,
		run({view}) {
			view.dispatch({type: 'next-pane', step: -1});
		},
	}),
	move('move.down', 'move down', ['j', 'down'], () => ({by: 1}), 'move'),
	move('move.up', 'move up', ['k', 'up'], () => ({by: -1})),
	move('move.page-down', 'page down', ['pgdn'], ({view}) => ({by: pageSize(view.getState())})),
	move('move.page-up', 'page up', ['pgup'], ({view}) => ({by: -pageSize(view.getState())})),
	move('move.first', 'first row', ['g', 'home'], () => ({to: 'first'})),
	move('move.last', 'last row', ['G', 'end'], () => ({to: 'last'})),
	defineOperation({
		id: 'filter',
		title: 'filter the rows (a regex; a leading ! inverts)',
		keys: ['/'],
		scope: ['lists', 'events'],
		danger: 'read',
		footer: 'filter',
		target: noTarget,
		run({view}) {
			view.dispatch({type: 'open-overlay', overlay: 'filter'});
		},
	}),
	defineOperation({
		id: 'filter.clear',
		title: 'clear the filter',
		keys: ['esc'],
		scope: ['lists'],
		danger: 'read',
		target: noTarget,
		run({view}) {
			view.dispatch({type: 'clear-filter'});
		},
	}),
	defineOperation({
		id: 'sort.next',
		title: 'sort by the next column',
		keys: ['s'],
		scope: ['lists'],
		danger: 'read',
		footer: 'sort',
		target: noTarget,
		run(context) {
			const {view} = context;
			const state = view.getState();
			view.dispatch({type: 'sort-next', columns: context.rows.pane(context.store.getState(), state, state.pane).columns.length});
		},
	}),
	defineOperation({
		id: 'sort.reverse',
		title: 'reverse the order',
		keys: ['S'],
		scope: ['lists'],
		danger: 'read',
		target: noTarget,
		run({view}) {
			view.dispatch({type: 'sort-reverse'});
		},
	}),
	defineOperation({
		id: 'back',
		title: 'back to the previous view',
		keys: ['esc'],
		scope: ['endpoint', 'gpu', 'pod', 'job', 'worker', 'alerts', 'events', 'spend'],
		danger: 'read',
		hint: 'back',
		footer: 'back',
		target: noTarget,
		run({view}) {
			view.dispatch({type: 'back'});
		},
	}),
	defineOperation<string>({
		id: 'endpoint.open',
		title: 'open the endpoint: its record, health history and tracked jobs',
		keys: ['enter'],
		scope: ['endpoints'],
		danger: 'read',
		hint: 'details',
		footer: 'open',
		target: context => selectedIn(context, 'endpoints') ?? unavailable('no endpoint to open'),
		run({view}, endpointId) {
			view.dispatch({type: 'open', view: {type: 'endpoint', endpointId}});
		},
	}),
	defineOperation<string>({
		id: 'pod.open',
		title: 'open the pod: ports, image, env names, disks, machine, per-GPU history',
		keys: ['enter'],
		scope: ['pods'],
		danger: 'read',
		footer: 'open',
		target: context => selectedIn(context, 'pods') ?? unavailable('no pod to open'),
		run({view}, podId) {
			view.dispatch({type: 'open', view: {type: 'pod', podId, showEnv: false}});
		},
	}),
	defineOperation({
		id: 'pod.env',
		title: "show or hide the environment's values (they often hold secrets)",
		keys: ['v'],
		scope: ['pod'],
		danger: 'read',
		hint: 'env values',
		target: noTarget,
		run({view}) {
			view.dispatch({type: 'toggle-env'});
		},
	}),
	defineOperation<string>({
		id: 'gpu.open',
		title: 'open the GPU type: every price, stock, counts and stock history',
		keys: ['enter'],
		scope: ['gpus'],
		danger: 'read',
		footer: 'open',
		target: context => selectedIn(context, 'gpus') ?? unavailable('no GPU type to open'),
		run({view}, gpuId) {
			view.dispatch({type: 'open', view: {type: 'gpu', gpuId}});
		},
	}),
];
