import {describe, expect, test} from 'vitest';
import {describeJsonError, jsonErrorIndex, textPosition} from '../../source/format/json-error.js';

const parseError = (text: string): unknown => {
	try {
		JSON.parse(text);
	} catch (error) {
		return error;
	}

	throw new Error(`${text} is JSON`);
};

describe('jsonErrorIndex', () => {
	test('agrees with JSON.parse on what is JSON, and where it says where', () => {
		const texts = [
			'{}',
			'[]',
			String.raw` {"a": [1, -2.5e+3, true, false, null, "x\u00e9\n"]} `,
			'{"a": }',
			'{"a": 1,}',
			'[1, 2,]',
			'{"a" 1}',
			'{"a": 01}',
			'{"a": -}',
			'{"a": 1.}',
			'{"a": 1e}',
			'{"a": tru}',
			'{"a": nul',
			'{"a": "b\nc"}',
			String.raw`{"a": "\x"}`,
			String.raw`{"a": "\u12"}`,
			'{"a": 1',
			'[1] 2',
			'',
			'   ',
			'{"prompt": "hello",\n "x": 1,,}',
			'{a: 1}',
			'"unterminated',
			`${'['.repeat(100_000)}${']'.repeat(100_000)}`,
		];
		for (const text of texts) {
			let valid = true;
			let stated: number | undefined;
			try {
				JSON.parse(text);
			} catch (error) {
				valid = false;
				const match = / at position (\d+)/.exec((error as Error).message);
				stated = match ? Number(match[1]) : undefined;
			}

			const index = jsonErrorIndex(text);
			expect(index === undefined, text.slice(0, 40)).toBe(valid);
			if (stated !== undefined) {
				expect(index, text.slice(0, 40)).toBe(stated);
			}
		}
	});

	test('a million open brackets are read without a stack of frames', () => {
		expect(jsonErrorIndex('['.repeat(1_000_000))).toBe(1_000_000);
	});
});

describe('describeJsonError', () => {
	test('says the line and column, counted from 1, whatever this Node says', () => {
		const text = '{\n  "prompt": "a red fox",\n  "steps": 4,\n}';
		expect(describeJsonError(text, parseError(text))).toMatch(/^line 4, column 1: /);
		// The issue's own case: a form whose JSON broke at character 35 of its first line.
		const flat = '{"prompt": "a red fox", "steps": 4 "seed": 1}';
		expect(describeJsonError(flat, parseError(flat))).toMatch(/^line 1, column 36: /);
		expect(describeJsonError('{"a": 1', parseError('{"a": 1'))).toMatch(/^line 1, column 8: /);
		expect(describeJsonError('', parseError(''))).toBe('line 1, column 1: unexpected end of input');
	});

	test("reads Node 18's, Node 20's and Node 22-24's messages alike, and never repeats the text", () => {
		const text = '{"a":\n }';
		const messages = [
			// Node 18
			'Unexpected token } in JSON at position 7',
			// Node 20: the text quoted, no position
			'Unexpected token \'}\', "{"a":\n }" is not valid JSON',
			// Node 22 and 24: the position and V8's own line and column
			'Unexpected token \'}\', "{"a":\n }" is not valid JSON (line 2 column 2)',
		];
		for (const message of messages) {
			expect(describeJsonError(text, new SyntaxError(message))).toBe("line 2, column 2: unexpected '}'");
		}

		const comma = '{"a": 1 "b": 2}';
		for (const message of [
			"Expected ',' or '}' after property value in JSON at position 8",
			"Expected ',' or '}' after property value in JSON at position 8 (line 1 column 9)",
		]) {
			expect(describeJsonError(comma, new SyntaxError(message))).toBe("line 1, column 9: expected ',' or '}' after property value");
		}

		expect(describeJsonError('[1] 2', new SyntaxError('Unexpected non-whitespace character after JSON at position 4 (line 1 column 5)'))).toBe(
			'line 1, column 5: unexpected non-whitespace character after JSON',
		);
	});

	test('a column counts characters, not UTF-16 units', () => {
		expect(textPosition('{"é🦊": x}', 8)).toEqual({line: 1, column: 8});
		expect(textPosition('a\nbc', 3)).toEqual({line: 2, column: 2});
	});
});
