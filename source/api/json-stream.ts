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
const comma = 44;
const space = 32;
const newline = 10;
const tab = 9;
const carriageReturn = 13;

/**
What a hostile answer may not exceed (a Prometheus's, say); each is refused as it streams in, before it
is held. Unset, a bound is as good as none.
*/
export type JsonBounds = {
	/** Containers open at once, the root's included. */
	readonly depth?: number;
	/** Elements (objects) of the list at the path. */
	readonly elements?: number;
	/** Containers inside one element of the list, itself not counted. */
	readonly perElement?: number;
	/** Containers inside all of the list's elements together. */
	readonly inElements?: number;
	/** Bytes held waiting for a chunk to come: a part of an element, of a string, or of the rest of the document. */
	readonly keptBytes?: number;
	/** Characters of the document outside the list's elements. */
	readonly skeletonChars?: number;
};

/** How long the parse runs before it lets the event loop turn (a key press, a frame): a long list is parsed in slices. */
const sliceMs = 8;
const yieldToEvents = async () =>
	new Promise<void>(resolve => {
		setImmediate(resolve);
	});

/** An answer over one of its bounds: said as a phrase (`nests deeper than 8`). */
export class JsonBoundError extends RangeError {
	override readonly name = 'JsonBoundError';
}

/** The scanner's place in the document between calls and chunks: depth, whether in a string, whether the last byte escaped the next, containers in the element and in all elements. */
const depthSlot = 0;
const inStringSlot = 1;
const escapedSlot = 2;
const elementContainersSlot = 3;
const allContainersSlot = 4;
/** The bounds as the scanner reads them. */
const maxDepthSlot = 0;
const maxPerElementSlot = 1;
const maxInElementsSlot = 2;
/** What `scan` answers when a bound is passed (the state's depth and counts say which). */
const overBound = -2;
const unbounded = 2 ** 31 - 1;

/**
Moves through `bytes` from `from` until a byte the reader must see: a quote above the list's depth
(a key that may be on the path), or a bracket or brace that opens or closes a container down to one
of the list's elements. Returns that byte's index, with the depth already moved past it, or -1 at
the end of the chunk, or `overBound` when a container passes one of `bounds`. Numbers only, so V8 compiles it once and keeps it (a pass over 1 MB at every
poll of 2,000 pods; a loop that also built the strings and lists was optimised and thrown away
again at every poll).
*/
function scan(bytes: Uint8Array, from: number, state: Int32Array, listDepth: number, bounds: Int32Array): number {
	let depth = state[depthSlot]!;
	let inString = state[inStringSlot]!;
	let escaped = state[escapedSlot]!;
	let inElement = state[elementContainersSlot]!;
	let inAll = state[allContainersSlot]!;
	let found = -1;
	for (let index = from; index < bytes.length; index++) {
		const byte = bytes[index]!;
		if (inString === 1) {
			if (escaped === 1) {
				escaped = 0;
			} else if (byte === backslash) {
				escaped = 1;
			} else if (byte === quote) {
				inString = 0;
				if (depth < listDepth) {
					found = index;
					break;
				}
			}
		} else {
			switch (byte) {
				case quote: {
					inString = 1;
					found = depth < listDepth ? index : -1;
					break;
				}

				case openBrace:
				case openBracket: {
					depth++;
					if (depth > listDepth + 1) {
						inElement++;
						inAll++;
					}

					found =
						depth > bounds[maxDepthSlot]! || inElement > bounds[maxPerElementSlot]! || inAll > bounds[maxInElementsSlot]!
							? overBound
							: depth <= listDepth + 1
								? index
								: -1;
					break;
				}

				case closeBrace:
				case closeBracket: {
					depth--;
					found = depth <= listDepth ? index : -1;
					break;
				}

				default:
			}

			if (found !== -1) {
				break;
			}
		}
	}

	state[depthSlot] = depth;
	state[inStringSlot] = inString;
	state[escapedSlot] = escaped;
	state[elementContainersSlot] = inElement;
	state[allContainersSlot] = inAll;
	return found;
}

/** Whether the bytes from `start` to `end` are one comma and whitespace: the gap between two elements of a list that both are objects. */
function isCommaGap(bytes: Uint8Array, start: number, end: number): boolean {
	let commas = 0;
	for (let index = start; index < end; index++) {
		const byte = bytes[index]!;
		if (byte === comma) {
			commas++;
		} else if (byte !== space && byte !== newline && byte !== tab && byte !== carriageReturn) {
			return false;
		}
	}

	return commas === 1;
}

/**
Parses a JSON document as it streams in, never holding it whole: the objects of the array at `path`
(keys from the root, such as `['data', 'myself', 'pods']`) are cut out as they arrive and parsed
apart from the rest with `JSON.parse`, each run of them that a chunk holds whole in one call (a
chunk's objects side by side are a list once bracketed: 2,000 pods are some 20 calls, not 2,000). A
list of 10,000 pods is then never one 5 MB string, nor the buffer it would be decoded from. Throws
a SyntaxError, as `JSON.parse` does, on a malformed or truncated document. Keys on the path are
matched as written (no escapes).

JSON's structure is all ASCII and a multi-byte UTF-8 character never holds an ASCII byte, so the
bytes are scanned as they come and only what is kept is decoded: each run of elements, the
strings above the list, the rest of the document. An answer past one of `bounds` throws a
JsonBoundError as soon as the byte that passes it is read.
*/
export async function parseSplitJson(chunks: AsyncIterable<Uint8Array | string>, path: readonly string[], bounds: JsonBounds = {}): Promise<SplitJson> {
	const listDepth = path.length + 1;
	const decoder = new TextDecoder();
	const state = new Int32Array(5);
	const scanBounds = Int32Array.from([bounds.depth ?? unbounded, bounds.perElement ?? unbounded, bounds.inElements ?? unbounded]);
	const maxElements = bounds.elements ?? Number.POSITIVE_INFINITY;
	const maxKept = bounds.keptBytes ?? Number.POSITIVE_INFINITY;
	const maxSkeleton = bounds.skeletonChars ?? Number.POSITIVE_INFINITY;
	let kept = 0;
	let skeletonChars = 0;
	const skeletonParts: string[] = [];
	const skeleton = {
		push(text: string) {
			skeletonChars += text.length;
			if (skeletonChars > maxSkeleton) {
				throw new JsonBoundError(`holds over ${maxSkeleton} characters beside its list`);
			}

			skeletonParts.push(text);
		},
	};
	/** Which bound `scan` found passed. */
	const passed = (): JsonBoundError =>
		state[depthSlot]! > scanBounds[maxDepthSlot]!
			? new JsonBoundError(`nests deeper than ${scanBounds[maxDepthSlot]}`)
			: state[elementContainersSlot]! > scanBounds[maxPerElementSlot]!
				? new JsonBoundError(`holds over ${scanBounds[maxPerElementSlot]} arrays and objects in one element of its list`)
				: new JsonBoundError(`holds over ${scanBounds[maxInElementsSlot]} arrays and objects in its list`);
	const elements: unknown[] = [];
	/** Whether each open container down to the list's depth lies on the path (the root does). */
	const onPath: boolean[] = [true];
	/** The last string seen above the list's depth (the key of what opens next). */
	let lastString = '';
	let inList = false;
	let inElement = false;
	/** Where the element open now began in the current chunk. */
	let elementStart = 0;
	/** Whether the bytes kept (from `from`) begin with the first element of a run: objects one after another, a comma apart. */
	let inRun = false;
	/** The run's elements closed so far, and where the last of them ends in the current chunk. */
	let runCount = 0;
	let runEnd = 0;
	/** The bytes kept from earlier chunks (of an element, a string above the list, or the rest). */
	const pieces: Uint8Array[] = [];
	/** Where the bytes being kept begin in the current chunk. */
	let from = 0;
	const take = (bytes: Uint8Array, end: number): string => {
		const part = bytes.subarray(from, end);
		const text = decoder.decode(pieces.length === 0 ? part : Buffer.concat([...pieces, part]));
		pieces.length = 0;
		kept = 0;
		return text;
	};

	/** Parses the run's closed elements in one call; the skeleton holds their indices. The bytes after them stay kept. */
	const parseRun = (bytes: Uint8Array) => {
		if (runCount > 0) {
			const first = elements.length;
			for (const element of JSON.parse(`[${take(bytes, runEnd)}]`) as unknown[]) {
				elements.push(element);
			}

			skeleton.push(Array.from({length: runCount}, (_, index) => first + index).join(','));
			from = runEnd;
			runCount = 0;
		}

		inRun = false;
	};

	/** The byte at `index` was a quote, bracket or brace that `scan` stopped at; the depth is past it. */
	const handle = (bytes: Uint8Array, index: number) => {
		const byte = bytes[index];
		const depth = state[depthSlot]!;
		if (byte === quote && state[inStringSlot] === 1) {
			// A string opens above the list: what came before it, its quote included, is skeleton.
			skeleton.push(take(bytes, index + 1));
			from = index + 1;
		} else if (byte === quote) {
			lastString = take(bytes, index);
			skeleton.push(lastString);
			from = index;
		} else if (byte === openBrace || byte === openBracket) {
			if (depth <= listDepth) {
				onPath[depth] = onPath[depth - 1]! && (depth === 1 || lastString === path[depth - 2]);
				inList = depth === listDepth && onPath[depth] && byte === openBracket;
			} else if (inList && byte === openBrace) {
				if (elements.length + runCount >= maxElements) {
					throw new JsonBoundError(`holds over ${maxElements} elements in its list`);
				}

				state[elementContainersSlot] = 0;
				// The next object of the run, or the first of a new one (after something else in the list, or the list's start).
				if (!(inRun && runCount > 0 && isCommaGap(bytes, runEnd, index))) {
					parseRun(bytes);
					skeleton.push(take(bytes, index));
					from = index;
					inRun = true;
				}

				elementStart = index;
				inElement = true;
			}
		} else if (inElement && depth === listDepth) {
			runCount++;
			runEnd = index + 1;
			inElement = false;
		} else if (depth === listDepth - 1) {
			parseRun(bytes);
			inList = false;
		}
	};

	let sliceStart = performance.now();
	for await (const chunk of chunks) {
		// Chunks already received resolve one after another as microtasks: a 3 MB list of 2,000 pods parsed in one go held a key press for up to 400 ms on a busy machine.
		if (performance.now() - sliceStart > sliceMs) {
			await yieldToEvents();
			sliceStart = performance.now();
		}

		const bytes = typeof chunk === 'string' ? Buffer.from(chunk) : chunk;
		from = 0;
		for (let index = scan(bytes, 0, state, listDepth, scanBounds); index !== -1; index = scan(bytes, index + 1, state, listDepth, scanBounds)) {
			if (index === overBound) {
				throw passed();
			}

			handle(bytes, index);
		}

		// The run's closed elements are parsed with the chunk; an element still open begins the next run.
		if (runCount > 0) {
			parseRun(bytes);
			if (inElement) {
				skeleton.push(take(bytes, elementStart));
				from = elementStart;
				inRun = true;
			}
		}

		// What is being kept waits for the next chunk: copied, in case the caller reuses its buffers.
		if (from < bytes.length) {
			kept += bytes.length - from;
			if (kept > maxKept) {
				throw new JsonBoundError(`holds over ${maxKept} bytes in one piece (an element of its list, a string, or what is around the list)`);
			}

			pieces.push(Buffer.from(bytes.subarray(from)));
		}
	}

	if (inElement || state[inStringSlot] === 1) {
		throw new SyntaxError('Unexpected end of JSON input');
	}

	skeleton.push(decoder.decode(Buffer.concat(pieces)));
	return {document: JSON.parse(skeletonParts.join('')), elements};
}
