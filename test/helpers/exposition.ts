/** One sample of the Prometheus text format: its name among its labels (as Prometheus answers), and its value as text. */
export type ExposedSample = {readonly metric: Record<string, string>; readonly value: string};

const unescape = (text: string) => text.replaceAll(/\\(["\\n])/g, (_, character: string) => (character === 'n' ? '\n' : character));

/** Parses what a /metrics endpoint serves (no timestamps, no exemplars: what prom-client writes). */
export function parseExposition(text: string, extra: Record<string, string> = {}): ExposedSample[] {
	const samples: ExposedSample[] = [];
	for (const line of text.split('\n')) {
		const match = /^([a-zA-Z_:][\w:]*)(?:{(.*)})? (\S+)$/.exec(line);
		if (!match) {
			continue;
		}

		const metric: Record<string, string> = {__name__: match[1]!, ...extra};
		for (const [, name, value] of (match[2] ?? '').matchAll(/(\w+)="((?:[^"\\]|\\.)*)"/g)) {
			metric[name!] = unescape(value!);
		}

		samples.push({metric, value: match[3]!});
	}

	return samples;
}

/** Samples as an instant query's answer `data` (a vector at `at`, ms). */
export const asVector = (samples: readonly ExposedSample[], at: number) => ({
	resultType: 'vector',
	result: samples.map(({metric, value}) => ({metric, value: [at / 1000, value]})),
});

/** Scrapes (each a list of samples, at its time in ms) as a range selector's answer `data`: one series per label set, values in time order. */
export function asMatrix(scrapes: ReadonlyArray<{readonly at: number; readonly samples: readonly ExposedSample[]}>) {
	const series = new Map<string, {metric: Record<string, string>; values: Array<[number, string]>}>();
	for (const {at, samples} of scrapes) {
		for (const {metric, value} of samples) {
			const key = JSON.stringify(Object.entries(metric).sort(([a], [b]) => a.localeCompare(b)));
			const one = series.get(key) ?? {metric, values: []};
			one.values.push([at / 1000, value]);
			series.set(key, one);
		}
	}

	return {resultType: 'matrix', result: [...series.values()]};
}
