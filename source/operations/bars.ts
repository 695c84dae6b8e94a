import {unicodeGlyphs, type Glyphs} from '../format/glyphs.js';
import {keyLabel} from './key-name.js';

/** A bar typed in on the bottom line: the `/` filter or the `:` palette. */
export type Bar = 'filter' | 'palette';

/** A key of a bar and what it does there (handle-key.ts does it), for the bar's hint. */
type BarKey = {readonly key: string; readonly does: string};

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
};

/** What a bar takes, said before its keys; what more there is to know, after them. */
const barNotes: Readonly<Record<Bar, {readonly before?: string; readonly after?: string}>> = {
	filter: {before: 'regex, ! inverts'},
	palette: {after: ':help lists them'},
};

/** A bar's hint: its keys and what it takes (`regex, ! inverts · Enter keeps · Esc clears`). */
export function barHint(bar: Bar, glyphs: Glyphs = unicodeGlyphs): string {
	const {before, after} = barNotes[bar];
	const keys = barKeys[bar].map(({key, does}) => `${keyLabel(key, glyphs)} ${does}`);
	return [...(before ? [before] : []), ...keys, ...(after ? [after] : [])].join(` ${glyphs.dot} `);
}
