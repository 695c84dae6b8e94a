import {toAscii} from '../format/ascii-text.js';

/**
The terminal as Ink sees it, with every frame made ASCII while `ascii()` says so (`--ascii`, a
profile's ascii, a locale that is not UTF-8): nothing outside ASCII reaches the terminal, service text
(names, images, log lines) included. Everything else (size, resize events, isTTY) is the terminal's.
*/
export function asciiTerminal(stdout: NodeJS.WriteStream, ascii: () => boolean): NodeJS.WriteStream {
	return new Proxy(stdout, {
		get(target, property) {
			if (property === 'write') {
				return (chunk: unknown, ...rest: unknown[]) => {
					const text = typeof chunk === 'string' ? chunk : chunk instanceof Uint8Array ? Buffer.from(chunk).toString('utf8') : chunk;
					// @ts-expect-error write's overloads: a chunk and its encoding or callback, passed on as they came.
					return target.write(ascii() && typeof text === 'string' ? toAscii(text) : chunk, ...rest);
				};
			}

			const value: unknown = Reflect.get(target, property, target);
			return typeof value === 'function' ? (value as (...arguments_: unknown[]) => unknown).bind(target) : value;
		},
	});
}
