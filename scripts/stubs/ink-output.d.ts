/** Characters whose width is kept (a screen draws a few hundred different ones). */
export const characterWidthLimit: number;

/** Ink's Output class over the same packages (slice-ansi, string-width, ansi-tokenize), with the bundle's narrow rows (text-paths.js) when given. */
export function createOutputClass(packages: {
	readonly sliceAnsi: (text: string, start: number, end?: number) => string;
	readonly stringWidth: (text: string) => number;
	readonly tokenize: (text: string) => unknown[];
	readonly styledCharsFromTokens: (tokens: never[]) => unknown[];
	readonly styledCharsToString: (chars: never[]) => string;
	/** A row's string from its writes (column, line, …), or undefined to draw it as Ink does. */
	readonly drawNarrowRow?: (width: number, writes: Array<number | string>) => string | undefined;
}): unknown;
