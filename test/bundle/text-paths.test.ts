import {existsSync} from 'node:fs';
// The packages Ink's frames go through (Ink's own dependencies): the bundle's wrappers must answer as they do.
// eslint-disable-next-line import-x/no-extraneous-dependencies, n/no-extraneous-import
import * as tokenizer from '@alcalzone/ansi-tokenize';
// eslint-disable-next-line import-x/no-extraneous-dependencies, n/no-extraneous-import
import stringWidth from 'string-width';
import {describe, expect, test} from 'vitest';
import {fastAnsiTokenize, narrowText, withNarrowFastPath} from '../../scripts/stubs/text-paths.js';
import {seededRandom} from '../helpers/seeded-random.js';
import {sgrCodes} from '../helpers/sgr-codes.js';

const narrowCharacters = Array.from({length: 0x26_00}, (_, code) => String.fromCodePoint(code)).filter(character => narrowText.test(character));
/** What Ink's lines hold besides narrow text: SGR codes simple and compound, a stray escape, wide, joining and invisible characters. */
const others = [...sgrCodes, '\u001B', '\u001B[', '漢', '😀', '⚠️', 'e\u0301', '\u0301', '\u00AD', '\u200D', '\uFE0F', '\t', '\u2028', '👍🏽'];

function randomLine(next: () => number): string {
	let line = '';
	const length = Math.floor(next() * 60);
	for (let index = 0; index < length; index++) {
		line += next() < 0.9 ? narrowCharacters[Math.floor(next() * narrowCharacters.length)]! : others[Math.floor(next() * others.length)]!;
	}

	return line;
}

const fast = fastAnsiTokenize(tokenizer);
const widthCopies: Array<[string, (text: string) => number]> = [['string-width', stringWidth]];
const nestedCopy = new URL('../../node_modules/wrap-ansi/node_modules/string-width/index.js', import.meta.url);
if (existsSync(nestedCopy)) {
	const nested = (await import(nestedCopy.href)) as {default: (text: string) => number};
	widthCopies.push(['wrap-ansi/node_modules/string-width', nested.default]);
}

describe('narrow text', () => {
	test('each character is one UTF-16 unit, one column and not full-width for every string-width copy and the tokenizer', () => {
		expect(narrowCharacters.length).toBeGreaterThan(500);
		for (const character of narrowCharacters) {
			expect(character).toHaveLength(1);
			for (const [name, width] of widthCopies) {
				expect(width(character), `${name} U+${character.codePointAt(0)!.toString(16)}`).toBe(1);
			}

			expect(tokenizer.tokenize(character)).toEqual([{type: 'char', value: character, fullWidth: false}]);
		}
	});
});

describe('the bundle’s text paths answer as the packages do', () => {
	test('string-width: 1,500 random lines for each copy', () => {
		const next = seededRandom(1);
		for (const [name, width] of widthCopies) {
			const fastWidth = withNarrowFastPath(width);
			for (let run = 0; run < 1500; run++) {
				const line = randomLine(next);
				expect(fastWidth(line), `${name} ${JSON.stringify(line)}`).toBe(width(line));
			}
		}
	});

	test('tokenize, styled characters and back: 2,000 random lines, alone and laid on a row of blanks as Ink lays them', () => {
		const next = seededRandom(2);
		for (let run = 0; run < 2000; run++) {
			const line = randomLine(next);
			const tokens = fast.tokenize(line);
			expect(tokens, JSON.stringify(line)).toEqual(tokenizer.tokenize(line));
			const chars = fast.styledCharsFromTokens(tokens);
			expect(chars, JSON.stringify(line)).toEqual(tokenizer.styledCharsFromTokens(tokens));
			expect(fast.styledCharsToString(chars), JSON.stringify(line)).toBe(tokenizer.styledCharsToString(chars));
			// Ink's Output: a row of blank cells (each its own empty styles), the line's characters from x onward.
			const row = Array.from({length: 80}, () => ({type: 'char' as const, value: ' ', fullWidth: false, styles: [] as (typeof chars)[number]['styles']}));
			row.splice(Math.floor(next() * 10), chars.length, ...chars);
			expect(fast.styledCharsToString(row), JSON.stringify(line)).toBe(tokenizer.styledCharsToString(row));
		}
	});

	test('a line with an end column goes to the library', () => {
		expect(fast.tokenize('abc\u001B[2mdef', 4)).toEqual(tokenizer.tokenize('abc\u001B[2mdef', 4));
	});
});
