export const cacheLimit: number;
export function boundedMeasureText(widestLine: (text: string) => number): ((text: string) => {width: number; height: number}) & {cached(): number};
export function boundedWrapText(
	wrapAnsi: (text: string, columns: number, options: {trim: boolean; hard: boolean}) => string,
	cliTruncate: (text: string, columns: number, options: {position: 'start' | 'middle' | 'end'}) => string,
): ((text: string, maxWidth: number, wrapType: string) => string) & {cached(): number};
