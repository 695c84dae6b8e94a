import type {Place} from '../view-state/view-state.js';
import {keyLabel} from './key-name.js';
import type {Operation} from './operation.js';
import {operationsIn} from './registry.js';

export type HelpLine = {readonly keys: string; readonly title: string; readonly danger: Operation['danger']};

/** The `?` overlay's lines for a place: this view's keys first, then the global ones, then palette-only commands. */
export function helpLines(place: Place, readOnly: boolean): HelpLine[] {
	const available = operationsIn(place, readOnly);
	const local = available.filter(operation => !operation.scope.includes('global'));
	const global = available.filter(operation => operation.scope.includes('global'));
	const line = (operation: Operation): HelpLine => ({
		keys:
			operation.keys.length > 0
				? operation.keys.map(key => keyLabel(key)).join(' ')
				: `:${operation.palette?.name ?? operation.id}${operation.palette?.args ? ` ${operation.palette.args.map(kind => `<${kind}>`).join(' ')}` : ''}`,
		title: operation.title,
		danger: operation.danger,
	});
	return [...local, ...global].map(operation => line(operation));
}

/** The footer's hint: the few operations of this place worth a word there. */
export function footerHint(place: Place, readOnly: boolean): string {
	const available = operationsIn(place, readOnly).filter(operation => operation.footer);
	const local = available.filter(operation => !operation.scope.includes('global'));
	return [...local, ...available.filter(operation => operation.scope.includes('global'))]
		.map(operation => `${keyLabel(operation.keys[0] ?? '')} ${operation.footer ?? ''}`)
		.join(' · ');
}
