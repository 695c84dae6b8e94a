type StyledChar = {type: 'char'; value: string; fullWidth: boolean; styles: Array<{type: 'ansi'; code: string; endCode: string}>};
type Token = {type: 'char'; value: string; fullWidth: boolean} | {type: 'ansi'; code: string; endCode: string};
type Tokenizer = {
	tokenize(text: string, endChar?: number): Token[];
	styledCharsFromTokens(tokens: Token[]): StyledChar[];
	styledCharsToString(chars: StyledChar[]): string;
};

export const narrowText: RegExp;
export function withNarrowFastPath<F extends (input: string, options?: {ambiguousIsNarrow?: boolean}) => number>(stringWidth: F): F;
export function fastAnsiTokenize(original: Tokenizer & Record<string, unknown>): Tokenizer;
