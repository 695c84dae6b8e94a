import {existsSync} from 'node:fs';
// The package Ink's frames are measured with (Ink's own dependency): the bundle's wrapper must answer as it does.
// eslint-disable-next-line import-x/no-extraneous-dependencies, n/no-extraneous-import
import stringWidth from 'string-width';
import {describe, expect, test} from 'vitest';
import {narrowText, withNarrowFastPath} from '../../scripts/stubs/text-paths.js';
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

const widthCopies: Array<[string, (text: string) => number]> = [['string-width', stringWidth]];
const nestedCopy = new URL('../../node_modules/wrap-ansi/node_modules/string-width/index.js', import.meta.url);
if (existsSync(nestedCopy)) {
	const nested = (await import(nestedCopy.href)) as {default: (text: string) => number};
	widthCopies.push(['wrap-ansi/node_modules/string-width', nested.default]);
}

describe('narrow text', () => {
	test('each character is one UTF-16 unit, one column for every string-width copy', () => {
		expect(narrowCharacters.length).toBeGreaterThan(500);
		for (const character of narrowCharacters) {
			expect(character).toHaveLength(1);
			for (const [name, width] of widthCopies) {
				expect(width(character), `${name} U+${character.codePointAt(0)!.toString(16)}`).toBe(1);
			}
		}
	});
});

describe('the bundle’s text path answers as the package does', () => {
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
});
