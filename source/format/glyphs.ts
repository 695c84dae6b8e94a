/** The characters the UI draws with: Unicode blocks, or plain ASCII for `--ascii` and non-UTF-8 locales. */
export type Glyphs = {
	readonly spark: readonly string[];
	readonly barFull: string;
	readonly barEmpty: string;
	readonly stock: Readonly<Record<'High' | 'Medium' | 'Low' | 'None' | 'Unknown', string>>;
	readonly ellipsis: string;
	/** `≤`: at most (the header's data age). */
	readonly atMost: string;
	readonly separator: string;
	readonly warning: string;
	readonly up: string;
	readonly down: string;
	readonly key: string;
	/** A horizontal rule. */
	readonly rule: string;
	/** Marks beside a typed confirmation: the text matches, or does not (always with words too). */
	readonly match: string;
	readonly mismatch: string;
	/** Between an image's width and height: 1024×1024. */
	readonly times: string;
	/** Beside `rec` in the header while history is recorded. */
	readonly recording: string;
	/** Ink's border for dialogs. */
	readonly border: 'round' | 'classic';
	/** How charts are drawn: braille lines and block bars, or ASCII. */
	readonly charts: 'unicode' | 'ascii';
	/** From one thing to another: a port to its public port. */
	readonly arrow: string;
	/** Between the parts of a line: `1× RTX 4090 · 8 vCPU`. */
	readonly dot: string;
	/** The arrow keys, as hints and help name them. */
	readonly arrowKeys: Readonly<Record<'up' | 'down' | 'left' | 'right', string>>;
};

export const unicodeGlyphs: Glyphs = {
	spark: ['▁', '▂', '▃', '▄', '▅', '▆', '▇', '█'],
	barFull: '█',
	barEmpty: '░',
	stock: {High: '●●●', Medium: '●●○', Low: '●○○', None: '○○○', Unknown: '···'},
	ellipsis: '…',
	atMost: '≤',
	separator: '│',
	warning: '⚠',
	up: '▲',
	down: '▼',
	key: '••••',
	rule: '─',
	match: '✓',
	mismatch: '✗',
	recording: '●',
	times: '×',
	border: 'round',
	charts: 'unicode',
	arrow: '→',
	dot: '·',
	arrowKeys: {up: '↑', down: '↓', left: '←', right: '→'},
};

export const asciiGlyphs: Glyphs = {
	spark: ['_', '.', '-', '~', '=', '+', '*', '#'],
	barFull: '#',
	barEmpty: '.',
	stock: {High: '+++', Medium: '++-', Low: '+--', None: '---', Unknown: '???'},
	ellipsis: '~',
	atMost: '<=',
	separator: '|',
	warning: '!',
	up: '^',
	down: 'v',
	key: '****',
	rule: '-',
	match: '+',
	mismatch: 'x',
	recording: '*',
	times: 'x',
	border: 'classic',
	charts: 'ascii',
	arrow: '->',
	dot: '-',
	arrowKeys: {up: 'Up', down: 'Down', left: 'Left', right: 'Right'},
};

/** UTF-8 unless the locale says otherwise (LC_ALL, then LC_CTYPE, then LANG). */
export function localeIsUtf8(env: NodeJS.ProcessEnv = process.env): boolean {
	const locale = env.LC_ALL || env.LC_CTYPE || env.LANG || '';
	return locale === '' ? true : /utf-?8/i.test(locale);
}

/** A sparkline of `width` cells from the newest values, scaled to `max` (or to the largest value). */
export function sparkline(values: readonly number[], width: number, glyphs: Glyphs, max?: number): string {
	const recent = values.slice(-width);
	const top = max ?? Math.max(1, ...recent);
	const cells = recent.map(value => glyphs.spark[Math.min(glyphs.spark.length - 1, Math.max(0, Math.round((value / top) * (glyphs.spark.length - 1))))]!);
	return cells.join('').padStart(width, ' ');
}

/** A horizontal bar `width` cells long for a share in [0, 1]. */
export function bar(share: number, width: number, glyphs: Glyphs): string {
	const filled = Math.max(0, Math.min(width, Math.round(share * width)));
	return glyphs.barFull.repeat(filled) + glyphs.barEmpty.repeat(width - filled);
}

/** One cell per value (a vertical bar each): per-GPU utilisation in a single column. */
export function levels(percentages: readonly number[], glyphs: Glyphs): string {
	return percentages
		.map(value => glyphs.spark[Math.min(glyphs.spark.length - 1, Math.max(0, Math.round((value / 100) * (glyphs.spark.length - 1))))]!)
		.join('');
}
