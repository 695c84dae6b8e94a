import {describe, expect, test} from 'vitest';
import {budgetLabel} from '../../source/format/budget-label.js';
import {fit, fitMiddle, wrapLines, wrapWords} from '../../source/format/fit.js';
import {localeIsUtf8} from '../../source/format/glyphs.js';
import {formatCount, formatDollarsPerHour, formatPercent, formatPrice, formatRate} from '../../source/format/numbers.js';
import {sanitizeLine, sanitizeText} from '../../source/format/sanitize.js';
import {textTable} from '../../source/format/text-table.js';
import {naturalCompare} from '../../source/lib/natural-compare.js';

describe('untrusted text', () => {
	test('escape sequences and control characters are shown inert', () => {
		expect(sanitizeText('a\u001B[31mred\u0007\u0008\r\n\tb\u009B')).toBe('a␛[31mred^G^H\n    b\\u009b');
		expect(sanitizeText('\u202Eevil')).toBe(String.raw`\u202eevil`);
		// Zero-width characters can hide text or break alignment: shown as their code.
		expect(sanitizeText('a\u200Bb\u200Fc\u2060d\uFEFFe')).toBe(String.raw`a\u200bb\u200fc\u2060d\ufeffe`);
		expect(sanitizeLine('one\ntwo')).toBe('one⏎two');
	});

	test('text with nothing to change comes back as it is, and every character is changed alike alone or beside one that must be', () => {
		expect(sanitizeLine('gpu-pod-17 1× H100 ▁▂▃ $2.99/h')).toBe('gpu-pod-17 1× H100 ▁▂▃ $2.99/h');
		for (let code = 0; code <= 0xff_ff; code++) {
			if (code >= 0xd8_00 && code <= 0xdf_ff) {
				continue;
			}

			// A newline always takes the character-by-character path; a character alone takes it only if it needs to.
			const character = String.fromCodePoint(code);
			expect(`${sanitizeText(character)}\n`, `U+${code.toString(16)}`).toBe(sanitizeText(`${character}\n`));
		}
	});

	test('headless tables sanitise every cell', () => {
		const table = textTable(['NAME', 'N'], [['\u001B]0;PWNED\u0007\u001B[2Jevil', '1']], new Set([1]));
		expect(table).not.toContain('\u001B');
		expect(table).not.toContain('\u0007');
		expect(table).toBe(`${'NAME'.padEnd(19)}  N\n␛]0;PWNED^G␛[2Jevil  1`);
	});
});

describe('formatting', () => {
	test('numbers, prices and rates', () => {
		expect(formatPercent(0.4213)).toBe('42%');
		expect(formatPercent(undefined)).toBe('–');
		expect(formatPrice(0.34)).toBe('$0.34');
		expect(formatPrice(23.92)).toBe('$23.92');
		expect(formatDollarsPerHour(null)).toBe('–');
		expect(formatCount(1234)).toBe('1.2k');
		expect(formatCount(1_234_567)).toBe('1.2M');
		expect(formatRate(4.25)).toBe('4.3/m');
	});

	test('fitting text: cut with an ellipsis, padded, wrapped, cut in the middle', () => {
		expect(fit('abcdef', 4)).toBe('abc…');
		expect(fit('ab', 4, 'right')).toBe('  ab');
		expect(wrapLines('abcdef\n\nxy', 4)).toEqual(['abcd', 'ef', '', 'xy']);
		expect(wrapWords('Purge the queue of parked? Running jobs stay.', 16)).toEqual(['Purge the queue', 'of parked?', 'Running jobs', 'stay.']);
		expect(wrapWords('a verylongpodname-01 b', 8)).toEqual(['a', 'verylong', 'podname-', '01 b']);
		expect(wrapWords('', 8)).toEqual(['']);
		expect(fitMiddle('llama-3-8b-instruct', 13)).toBe('llama-…struct');
		expect(fitMiddle('short', 13)).toBe('short');
	});

	test('stream text wraps at word boundaries: a word that fits moves to the next line whole, a longer one is cut', () => {
		expect(wrapLines('the measured throughput was 52 tok/s', 20)).toEqual(['the measured', 'throughput was 52', 'tok/s']);
		expect(wrapLines('see https://example.com/a-very-long-link-indeed now', 16)).toEqual(['see', 'https://example.', 'com/a-very-long-', 'link-indeed now']);
		// Leading spaces (indented JSON, code) and empty lines stay; the spaces where a line breaks go.
		expect(wrapLines('{\n  "text": "one two three"\n}', 16)).toEqual(['{', '  "text": "one', 'two three"', '}']);
		expect(wrapLines('word   spaced', 6)).toEqual(['word', 'spaced']);
		expect(wrapLines('exactly ten', 7)).toEqual(['exactly', 'ten']);
		expect(wrapLines('', 8)).toEqual(['']);
		// Astral characters count as one column each, as the sanitiser leaves them.
		expect(wrapLines('🙂🙂🙂 🙂🙂', 4)).toEqual(['🙂🙂🙂', '🙂🙂']);
	});

	test('budget labels say which operation on which endpoint', () => {
		const names = (id: string) => ({ep1: 'llama-3-8b-instruct'})[id];
		expect(budgetLabel('graphql', names)).toBe('graphql');
		expect(budgetLabel('ep1:health', names)).toBe('health llama-3…struct');
		expect(budgetLabel('unknown-ep:purge-queue', names)).toBe('purge unknown-ep');
	});

	test('natural order', () => {
		expect(['exp-10', 'exp-2', 'Exp-1', 'exp-100'].sort(naturalCompare)).toEqual(['Exp-1', 'exp-2', 'exp-10', 'exp-100']);
	});

	test('ASCII mode follows the locale', () => {
		expect(localeIsUtf8({LANG: 'C.UTF-8'})).toBe(true);
		expect(localeIsUtf8({LC_ALL: 'C', LANG: 'en_US.UTF-8'})).toBe(false);
		expect(localeIsUtf8({LANG: 'en_US.ISO-8859-1'})).toBe(false);
	});
});
