// Ink's own dependencies, which the bundle's bounded caches sit over.
/* eslint-disable import-x/no-extraneous-dependencies, n/no-extraneous-import */
import cliTruncate from 'cli-truncate';
import widestLine from 'widest-line';
import wrapAnsi from 'wrap-ansi';
/* eslint-enable import-x/no-extraneous-dependencies, n/no-extraneous-import */
import {describe, expect, test} from 'vitest';
import {boundedMeasureText, boundedWrapText, cacheLimit} from '../../scripts/stubs/ink-text-caches.js';

/** A Pods row as a living fleet draws it: new text at every poll. */
const row = (poll: number, pod: number) => `pod-${pod}  1× H100 SXM  RUNNING  ▃  ${(poll * 7 + pod) % 100}%  ▁▂▃▄▅▆▇█  ${poll}h${pod}m  $2.99/h`;

describe('Ink text caches in the bundle', () => {
	test('measuring 40 new rows at each of 60 polls keeps at most the limit, with the answers Ink gives', () => {
		const measureText = boundedMeasureText(widestLine);
		for (let poll = 0; poll < 60; poll++) {
			for (let pod = 0; pod < 40; pod++) {
				const text = row(poll, pod);
				expect(measureText(text)).toEqual({width: widestLine(text), height: 1});
			}
		}

		expect(measureText.cached()).toBe(cacheLimit);
		expect(measureText('')).toEqual({width: 0, height: 0});
		expect(measureText('two\nlines, the second longer')).toEqual({width: 24, height: 2});
	});

	test('wrapping keeps at most the limit and wraps or truncates as Ink does', () => {
		const wrapText = boundedWrapText(wrapAnsi, cliTruncate);
		for (let poll = 0; poll < 60; poll++) {
			for (let pod = 0; pod < 40; pod++) {
				const text = row(poll, pod);
				expect(wrapText(text, 30, 'truncate')).toBe(cliTruncate(text, 30, {position: 'end'}));
			}
		}

		expect(wrapText.cached()).toBe(cacheLimit);
		expect(wrapText('a long line to wrap', 8, 'wrap')).toBe(wrapAnsi('a long line to wrap', 8, {trim: false, hard: true}));
		expect(wrapText('a long line', 6, 'truncate-middle')).toBe(cliTruncate('a long line', 6, {position: 'middle'}));
		expect(wrapText('a long line', 6, 'truncate-start')).toBe(cliTruncate('a long line', 6, {position: 'start'}));
	});
});
