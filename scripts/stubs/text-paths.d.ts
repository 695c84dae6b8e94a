type StyledChar = {type: 'char'; value: string; fullWidth: boolean; styles: Array<{type: 'ansi'; code: string; endCode: string}>};
type Token = {type: 'char'; value: string; fullWidth: boolean} | {type: 'ansi'; code: string; endCode: string};
type Tokenizer = {
	tokenize(text: string, endChar?: number): Token[];
	styledCharsFromTokens(tokens: Token[]): StyledChar[];
	styledCharsToString(chars: StyledChar[]): string;
};

export const narrowText: RegExp;
export function withNarrowFastPath<F extends (input: string, options?: {ambiguousIsNarrow?: boolean}) => number>(stringWidth: F): F;
export function fastAnsiTokenize(original: Tokenizer & Record<string, unknown>): Tokenizer & {
	/** A row's string from its writes (column, line, …) as Ink's Output makes it, or undefined when a write is not narrow text with plain SGR codes inside the row. */
	drawNarrowRow(width: number, writes: Array<number | string>): string | undefined;
};
