const whitespace = new Set([' ', '\t', '\n', '\r']);
const escapes = new Set(['"', '\\', '/', 'b', 'f', 'n', 'r', 't']);
const hex = /^[\da-fA-F]$/;
const digit = (char: string | undefined) => char !== undefined && char >= '0' && char <= '9';

/** The first of the four characters of a `\u` escape that is not a hex digit, if one is not. */
function notHexAt(text: string, from: number): number | undefined {
	for (let index = from; index < from + 4; index++) {
		if (!hex.test(text[index] ?? '')) {
			return Math.min(index, text.length);
		}
	}

	return undefined;
}

/** Where a string starting at `start` (its `"`) ends (past the closing quote), or `{at}` the character it cannot read. */
function stringEnd(text: string, start: number): number | {readonly at: number} {
	let index = start + 1;
	while (index < text.length) {
		const char = text[index]!;
		if (char === '"') {
			return index + 1;
		}

		if (char < ' ') {
			return {at: index};
		}

		if (char === '\\') {
			const escaped = text[index + 1];
			if (escaped === 'u') {
				const bad = notHexAt(text, index + 2);
				if (bad !== undefined) {
					return {at: bad};
				}

				index += 6;
				continue;
			}

			if (escaped === undefined || !escapes.has(escaped)) {
				return {at: index + 1};
			}

			index += 2;
			continue;
		}

		index++;
	}

	return {at: text.length};
}

/** Where a number starting at `start` ends, or `{at}` the character where it stops being one. */
function numberEnd(text: string, start: number): number | {readonly at: number} {
	let index = start;
	if (text[index] === '-') {
		index++;
	}

	const digits = () => {
		const from = index;
		while (digit(text[index])) {
			index++;
		}

		return index > from;
	};

	if (text[index] === '0') {
		index++;
	} else if (!digits()) {
		return {at: index};
	}

	if (text[index] === '.') {
		index++;
		if (!digits()) {
			return {at: index};
		}
	}

	if (text[index] === 'e' || text[index] === 'E') {
		index++;
		if (text[index] === '+' || text[index] === '-') {
			index++;
		}

		if (!digits()) {
			return {at: index};
		}
	}

	return index;
}

/** Where a scalar (string, number, true, false, null) starting at `start` ends, or `{at}` where it goes wrong. */
function scalarEnd(text: string, start: number): number | {readonly at: number} {
	const char = text[start]!;
	if (char === '"') {
		return stringEnd(text, start);
	}

	if (char === '-' || digit(char)) {
		return numberEnd(text, start);
	}

	const word = ['true', 'false', 'null'].find(literal => literal.startsWith(char));
	if (!word) {
		return {at: start};
	}

	for (let offset = 1; offset < word.length; offset++) {
		if (text[start + offset] !== word[offset]) {
			return {at: Math.min(start + offset, text.length)};
		}
	}

	return start + word.length;
}

/**
Where a text stops being JSON: the index of the first character that cannot be read (the text's
length when it ends too soon), or undefined when it is JSON. Iterative, so a hostile nesting of a
million brackets costs a stack of a million letters, not a million frames.
*/
export function jsonErrorIndex(text: string): number | undefined {
	const open: string[] = [];
	let expect: 'value' | 'first-value' | 'key' | 'first-key' | 'after' = 'value';
	let index = 0;
	for (;;) {
		while (index < text.length && whitespace.has(text[index]!)) {
			index++;
		}

		const char = text[index];
		if (char === undefined) {
			return expect === 'after' && open.length === 0 ? undefined : index;
		}

		if (expect === 'after') {
			const closer = open.at(-1) === '{' ? '}' : ']';
			if (open.length > 0 && char === ',') {
				expect = closer === '}' ? 'key' : 'value';
			} else if (open.length > 0 && char === closer) {
				open.pop();
			} else {
				return index;
			}

			index++;
			continue;
		}

		if ((expect === 'first-key' && char === '}') || (expect === 'first-value' && char === ']')) {
			open.pop();
			expect = 'after';
			index++;
			continue;
		}

		if (expect === 'key' || expect === 'first-key') {
			if (char !== '"') {
				return index;
			}

			const end = stringEnd(text, index);
			if (typeof end !== 'number') {
				return end.at;
			}

			index = end;
			while (index < text.length && whitespace.has(text[index]!)) {
				index++;
			}

			if (text[index] !== ':') {
				return index;
			}

			index++;
			expect = 'value';
			continue;
		}

		if (char === '{' || char === '[') {
			open.push(char);
			expect = char === '{' ? 'first-key' : 'first-value';
			index++;
			continue;
		}

		const end = scalarEnd(text, index);
		if (typeof end !== 'number') {
			return end.at;
		}

		index = end;
		expect = 'after';
	}
}

/** The 1-based line and column of a position in a text; a column counts characters, as an editor does. */
export function textPosition(text: string, position: number): {readonly line: number; readonly column: number} {
	const before = text.slice(0, position);
	const lineStart = before.lastIndexOf('\n') + 1;
	// A character outside the BMP is two UTF-16 units: its first is not counted.
	const characters = before.slice(lineStart).replaceAll(/[\uD800-\uDBFF](?=[\uDC00-\uDFFF])/g, '').length;
	return {line: before.split('\n').length, column: characters + 1};
}

/**
What JSON.parse said, without where (its `in JSON at position N`, Node 22's `(line L column C)`) or
the quoted text (Node 20's `"…" is not valid JSON`, which may be long and is the user's own).
*/
function reasonOf(message: string): string {
	const bare = message.replace(/ \(line \d+ column \d+\)$/, '');
	const token = /^Unexpected token '?(.+?)'?(?:, .*is not valid JSON| in JSON.*)$/s.exec(bare);
	const reason = token ? `unexpected '${token[1]}'` : bare.replace(/ (?:in JSON )?at position \d+$/, '').replace(/ of JSON input$/, ' of input');
	return reason.charAt(0).toLowerCase() + reason.slice(1);
}

/**
A JSON.parse error of `text` as `line L, column C: reason`, for every JSON a user writes (the job
form, `--input` and its files, `--faults`). The position is worked out here from the text, whatever
the Node version says of it (Node 20 often says none); the reason is Node's, tidied.
*/
export function describeJsonError(text: string, error: unknown): string {
	const message = error instanceof Error ? error.message : String(error);
	const stated = / at position (\d+)/.exec(message)?.[1];
	const position = jsonErrorIndex(text) ?? (stated === undefined ? undefined : Number(stated));
	const reason = reasonOf(message);
	if (position === undefined) {
		return reason;
	}

	const {line, column} = textPosition(text, position);
	return `line ${line}, column ${column}: ${reason}`;
}
