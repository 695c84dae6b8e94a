import {unicodeGlyphs, type Glyphs} from '../format/glyphs.js';
import {keyLabel} from './key-name.js';

/** Something typed in whose keys the bottom line says: the `/` filter, the `:` palette, an open form, a name typed to confirm. */
export type Bar = 'filter' | 'palette' | 'form' | 'typed-confirm';

/** Keys of a bar (one or several doing the same) and what they do there (handle-key.ts and form-keys.ts do it), for the bar's hint. */
type BarKey = {readonly key: string | readonly string[]; readonly does: string};

/** The keys of each bar, as handleKey treats them there: the bars' hints are made of these, as the other hints are of the operations. */
export const barKeys: Readonly<Record<Bar, readonly BarKey[]>> = {
	filter: [
		{key: 'enter', does: 'keeps'},
		{key: 'esc', does: 'clears'},
	],
	palette: [
		{key: 'tab', does: 'completes, again: the next'},
		{key: 'enter', does: 'runs'},
		{key: 'esc', does: 'closes'},
	],
	form: [
		{key: ['tab', 'up', 'down'], does: 'next field'},
		{key: ['left', 'right'], does: 'cursor or choice'},
		{key: ' ', does: 'toggles'},
		{key: 'ctrl-s', does: 'or Enter on Send: review'},
		{key: 'esc', does: 'cancel (kept as a draft)'},
	],
	'typed-confirm': [
		{key: 'enter', does: 'confirms once the name matches'},
		{key: 'backspace', does: 'edits'},
		{key: 'esc', does: 'cancels'},
	],
};

/** What a bar takes, said before its keys; what more there is to know, after them. */
const barNotes: Readonly<Record<Bar, {readonly before?: string; readonly after?: string}>> = {
	filter: {before: 'regex, ! inverts'},
	palette: {after: ':help lists them'},
	form: {},
	'typed-confirm': {},
};

/** A bar's hint: its keys and what it takes (`regex, ! inverts · Enter keeps · Esc clears`). */
export function barHint(bar: Bar, glyphs: Glyphs = unicodeGlyphs): string {
	const {before, after} = barNotes[bar];
	const keys = barKeys[bar].map(({key, does}) => `${(typeof key === 'string' ? [key] : key).map(name => keyLabel(name, glyphs)).join('/')} ${does}`);
	return [...(before ? [before] : []), ...keys, ...(after ? [after] : [])].join(` ${glyphs.dot} `);
}
