import {pageSize} from '../view-state/layout.js';
import type {Place} from '../view-state/view-state.js';
import {defineOperation, type Operation} from './operation.js';

/** What each of a view's six moves is called in its help: down, up, page down, page up, first, last. */
type MoveTitles = readonly [down: string, up: string, first: string, last: string];

/**
The six row moves of a view with rows of its own (the Spend pane's resources, the events timeline):
j/k, PgDn/PgUp, g/G, each dispatching `type` with how far or where to. `footer` names the first in the bottom line.
*/
export function rowMoves(prefix: string, place: Place, type: 'move-spend' | 'move-events', [down, up, first, last]: MoveTitles, footer: string): Operation[] {
	const move = (id: string, title: string, keys: readonly string[], step: (page: number) => {by?: number; to?: 'first' | 'last'}, hint?: string) =>
		defineOperation({
			id: `${prefix}.${id}`,
			title,
			keys,
			scope: [place],
			danger: 'read',
			footer: hint,
			target: () => undefined,
			run(context) {
				context.view.dispatch({type, ...step(pageSize(context.view.getState()))});
			},
		});
	return [
		move('down', down, ['j', 'down'], () => ({by: 1}), footer),
		move('up', up, ['k', 'up'], () => ({by: -1})),
		move('page-down', 'page down', ['pgdn'], page => ({by: page})),
		move('page-up', 'page up', ['pgup'], page => ({by: -page})),
		move('first', first, ['g', 'home'], () => ({to: 'first'})),
		move('last', last, ['G', 'end'], () => ({to: 'last'})),
	];
}
