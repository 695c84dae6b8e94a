import {toAscii} from '../format/ascii-text.js';

type Method = (...arguments_: unknown[]) => unknown;

/**
The terminal as Ink sees it, with every frame made ASCII while `ascii()` says so (`--ascii`, a
profile's ascii, a locale that is not UTF-8): nothing outside ASCII reaches the terminal, service text
(names, images, log lines) included. Everything else (size, resize events, isTTY) is the terminal's.
Ink reads the terminal's properties and writes to it every frame: the write and each bound method are
made once, not at every read.
*/
export function asciiTerminal(stdout: NodeJS.WriteStream, ascii: () => boolean): NodeJS.WriteStream {
	const write = (chunk: unknown, ...rest: unknown[]) => {
		const text = typeof chunk === 'string' ? chunk : chunk instanceof Uint8Array ? Buffer.from(chunk).toString('utf8') : chunk;
		// @ts-expect-error write's overloads: a chunk and its encoding or callback, passed on as they came.
		return stdout.write(ascii() && typeof text === 'string' ? toAscii(text) : chunk, ...rest);
	};

	const bound = new WeakMap<Method, Method>();
	return new Proxy(stdout, {
		get(target, property) {
			if (property === 'write') {
				return write;
			}

			const value: unknown = Reflect.get(target, property, target);
			if (typeof value !== 'function') {
				return value;
			}

			let method = bound.get(value as Method);
			if (!method) {
				method = (value as Method).bind(target);
				bound.set(value as Method, method);
			}

			return method;
		},
	});
}
