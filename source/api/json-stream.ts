/** A JSON document read from a stream with the objects of one list cut out. */
export type SplitJson = {
	/** The document with each cut-out object replaced by its index in `elements`. */
	readonly document: unknown;
	readonly elements: unknown[];
};

const quote = 34;
const backslash = 92;
const openBrace = 123;
const closeBrace = 125;
const openBracket = 91;
const closeBracket = 93;

/**
Parses a JSON document as it streams in, never holding it whole: each object of the array at `path`
(keys from the root, such as `['data', 'myself', 'pods']`) is cut out as it arrives and parsed on
its own with `JSON.parse`. A list of 10,000 pods is then never one 5 MB string, nor the buffer that
string would be decoded from. Throws a SyntaxError, as `JSON.parse` does, on a malformed or
truncated document. Keys on the path are matched as written (no escapes).
*/
export async function parseSplitJson(chunks: AsyncIterable<Uint8Array | string>, path: readonly string[]): Promise<SplitJson> {
	const listDepth = path.length + 1;
	const decoder = new TextDecoder();
	const skeleton: string[] = [];
	const elements: unknown[] = [];
	let depth = 0;
	let inString = false;
	let escaped = false;
	/** Whether each open container down to the list's depth lies on the path (the root does). */
	const onPath: boolean[] = [];
	/** The last string seen above the list's depth (the key of what opens next), and where it began. */
	let lastString = '';
	let stringFrom = -1;
	let inList = false;
	let inElement = false;
	/** The part of an element, or of a string above it, that arrived in earlier chunks. */
	let partial = '';

	const feed = (text: string) => {
		let from = 0;
		for (let index = 0; index < text.length; index++) {
			const code = text.codePointAt(index);
			if (inString) {
				if (escaped) {
					escaped = false;
				} else if (code === backslash) {
					escaped = true;
				} else if (code === quote) {
					inString = false;
					if (stringFrom !== -1) {
						lastString = partial + text.slice(stringFrom, index);
						partial = '';
						stringFrom = -1;
					}
				}
			} else
				switch (code) {
					case quote: {
						inString = true;
						if (depth < listDepth) {
							stringFrom = index + 1;
						}

						break;
					}

					case openBrace:
					case openBracket: {
						depth++;
						if (depth <= listDepth) {
							onPath[depth] = depth === 1 || (onPath[depth - 1]! && lastString === path[depth - 2]);
							inList = depth === listDepth && onPath[depth]! && code === openBracket;
						} else if (inList && depth === listDepth + 1 && code === openBrace) {
							skeleton.push(text.slice(from, index), String(elements.length));
							elements.push(undefined);
							from = index;
							inElement = true;
						}

						break;
					}

					case closeBrace:
					case closeBracket: {
						if (inElement && depth === listDepth + 1) {
							elements[elements.length - 1] = JSON.parse(partial + text.slice(from, index + 1));
							partial = '';
							from = index + 1;
							inElement = false;
						} else if (depth === listDepth) {
							inList = false;
						}

						depth--;

						break;
					}
					// No default
				}
		}

		if (inElement) {
			partial += text.slice(from);
		} else {
			skeleton.push(text.slice(from));
			if (stringFrom !== -1) {
				partial += text.slice(stringFrom);
				stringFrom = 0;
			}
		}
	};

	for await (const chunk of chunks) {
		feed(typeof chunk === 'string' ? chunk : decoder.decode(chunk, {stream: true}));
	}

	feed(decoder.decode());
	if (inElement || inString) {
		throw new SyntaxError('Unexpected end of JSON input');
	}

	return {document: JSON.parse(skeleton.join('')), elements};
}
