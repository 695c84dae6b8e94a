import {unicodeGlyphs, type Glyphs} from '../format/glyphs.js';
import type {Column} from '../rows/row.js';
import type {Place} from '../view-state/view-state.js';
import {keyLabel} from './key-name.js';
import type {Operation} from './operation.js';
import {paletteUsage} from './palette.js';
import {inScope, operationById, operationsIn} from './registry.js';
import {timeTravelOperations} from './time-travel.js';

export type HelpLine = {readonly keys: string; readonly title: string; readonly danger: Operation['danger']};

/** A heading of the `?` overlay and its lines. */
export type HelpSection = {readonly heading: string; readonly lines: readonly HelpLine[]};

const timeTravelIds = new Set(timeTravelOperations.map(operation => operation.id));

/**
The `?` overlay's sections: this view's keys, history and the time cursor, the keys that work
everywhere, then what the `columns` on screen say where their titles do not say it all (`WORKERS`
reads `0/10 +1!`).
*/
export function helpSections(place: Place, readOnly: boolean, glyphs: Glyphs = unicodeGlyphs, columns: readonly Column[] = []): HelpSection[] {
	const available = operationsIn(place, readOnly);
	const isTime = (operation: Operation) => timeTravelIds.has(operation.id);
	const local = available.filter(operation => !operation.scope.includes('global') && !isTime(operation));
	const time = available.filter(operation => isTime(operation));
	const global = available.filter(operation => operation.scope.includes('global') && !isTime(operation));
	const line = (operation: Operation): HelpLine => ({
		keys: operation.keys.length > 0 ? operation.keys.map(key => keyLabel(key, glyphs)).join(' ') : paletteUsage(operation),
		title: operation.title,
		danger: operation.danger,
	});
	const sections = [
		{heading: 'This view', lines: local.map(operation => line(operation))},
		{heading: 'History and the time cursor', lines: time.map(operation => line(operation))},
		{heading: 'Everywhere', lines: global.map(operation => line(operation))},
		{
			heading: 'Columns',
			lines: columns.flatMap(column => (column.legend ? [{keys: column.title, title: column.legend, danger: 'read' as const}] : [])),
		},
	];
	return sections.filter(section => section.lines.length > 0);
}

/** The footer's hint: the few operations of this place worth a word there. */
export function footerHint(place: Place, readOnly: boolean, glyphs: Glyphs = unicodeGlyphs): string {
	const available = operationsIn(place, readOnly).filter(operation => operation.footer);
	const local = available.filter(operation => !operation.scope.includes('global'));
	return [...local, ...available.filter(operation => operation.scope.includes('global'))]
		.map(operation => `${keyLabel(operation.keys[0] ?? '', glyphs)} ${operation.footer ?? ''}`)
		.join(` ${glyphs.dot} `);
}

/** A key hint in a view's title: one operation, or several whose keys share a word (`< > window`); `word` says more than the operation's own. */
export type KeyHint = string | {readonly ids: readonly string[]; readonly word?: string};

/**
The key hints of a view's title line (`Enter details · t test job`), from the operations themselves:
a hint whose operation does not work here, or writes in read-only mode, is not shown.
*/
export function keyHints(place: Place, readOnly: boolean, hints: readonly KeyHint[], glyphs: Glyphs = unicodeGlyphs): string {
	return hints
		.flatMap(hint => {
			const {ids, word} = typeof hint === 'string' ? {ids: [hint], word: undefined} : hint;
			const available = ids.flatMap(id => {
				const operation = operationById(id);
				return operation && inScope(operation, place) && !(readOnly && operation.danger !== 'read') ? [operation] : [];
			});
			const text = word ?? available.at(-1)?.hint ?? available.at(-1)?.footer;
			return available.length === 0 || !text ? [] : [`${available.map(operation => keyLabel(operation.keys[0] ?? '', glyphs)).join(' ')} ${text}`];
		})
		.join(` ${glyphs.dot} `);
}
