/**
A stdout for Ink that writes only the lines that changed, each at its absolute row.

Ink 6.8's `incrementalRendering` starts its diff one row too low when the frame is shorter than
the screen (its cursor maths ignores the frame's trailing newline), which duplicates the top line;
a frame as tall as the screen instead makes Ink clear and redraw everything. So podtop lets Ink
render whole frames (standard mode) into this writer, which strips Ink's erase-and-rewrite prefix,
compares the frame with the previous one line by line, and sends only the differences. An unchanged
frame sends nothing at all. Only for use on the alternate screen, where the frame starts at row 1.
*/
const eraseLinePrefix = /^(?:\u001B\[2K|\u001B\[1A|\u001B\[G)+/;
const sync = {begin: '\u001B[?2026h', end: '\u001B[?2026l'};

export type FrameWriter = {
	readonly stdout: NodeJS.WriteStream;
	/** Forget the previous frame, so the next one is drawn whole (after a resize). */
	readonly invalidate: () => void;
	/**
	Writes nothing more, ever: the terminal was given back. On `process.exit` (a crash) Ink's own exit
	hook still draws its pending frame, which would otherwise land on the shell's screen.
	*/
	readonly close: () => void;
};

export function diffFrame(previous: readonly string[], next: readonly string[]): string {
	let out = '';
	for (const [index, element] of next.entries()) {
		if (element !== previous[index]) {
			out += `\u001B[${index + 1};1H${element}\u001B[K`;
		}
	}

	for (let index = next.length; index < previous.length; index++) {
		out += `\u001B[${index + 1};1H\u001B[K`;
	}

	return out;
}

export function createFrameWriter(target: NodeJS.WriteStream = process.stdout): FrameWriter {
	let previous: string[] = [];
	let closed = false;
	const send = (text: string) => {
		if (text && !closed) {
			target.write(text);
		}
	};

	const write = (chunk: string | Uint8Array, ...rest: unknown[]): boolean => {
		const text = typeof chunk === 'string' ? chunk : Buffer.from(chunk).toString('utf8');
		const callback = rest.find(argument => typeof argument === 'function') as (() => void) | undefined;
		const body = text.replace(eraseLinePrefix, '');
		const isFrame = body !== text || (previous.length === 0 && body.includes('\n'));
		if (isFrame) {
			const lines = body.endsWith('\n') ? body.slice(0, -1).split('\n') : body.split('\n');
			const out = diffFrame(previous, lines);
			previous = lines;
			send(out);
		} else if (text !== sync.begin && text !== sync.end) {
			// Cursor show/hide, synchronized-output markers and the like pass through.
			send(text);
		}

		callback?.();
		return true;
	};

	const stdout = new Proxy(target, {
		get(object, property) {
			if (property === 'write') {
				return write;
			}

			const value = Reflect.get(object, property, object) as unknown;
			return typeof value === 'function' ? (value as (...arguments_: unknown[]) => unknown).bind(object) : value;
		},
	});
	return {
		stdout,
		invalidate() {
			previous = [];
			send('\u001B[2J');
		},
		close() {
			closed = true;
		},
	};
}
