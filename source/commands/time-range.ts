import {formatSpan, momentHelp, parseMoment, parseSpan} from '../lib/time-spec.js';
import {UsageError} from '../lib/usage-error.js';

/** Flags of the commands that read a stretch of history (meow flag definitions). */
export const timeRangeFlags = {
	since: {type: 'string'},
	from: {type: 'string'},
	to: {type: 'string'},
} as const;

export const timeRangeHelp = (defaultSince: number) => `
	When
	  --since TIME      From then until now: a span ago (45m, 6h, 2d) or a time  [default: ${formatSpan(defaultSince)}]
	  --from TIME       From this moment (with --to, or until now)
	  --to TIME         Until this moment
	                    TIME is ${momentHelp}`;

type Flags = {readonly since?: string; readonly from?: string; readonly to?: string};

export type TimeRange = {readonly from: number; readonly to: number};

/** A moment given on the command line, or a UsageError that says what one looks like. */
export function readMoment(flag: string, text: string, now: number): number {
	const at = parseMoment(text, now);
	if (at === undefined) {
		throw new UsageError(`${flag} "${text}" is not a time: write ${momentHelp}`);
	}

	return at;
}

/** The stretch asked for: `--since` (or its default) until now, or `--from` … `--to`; never both ways at once. */
export function readTimeRange(flags: Flags, defaultSince: number, now = Date.now()): TimeRange {
	if (flags.since !== undefined && (flags.from !== undefined || flags.to !== undefined)) {
		throw new UsageError('give --since, or --from and --to, not both');
	}

	if (flags.since !== undefined) {
		return {from: readMoment('--since', flags.since, now), to: now};
	}

	const to = flags.to === undefined ? now : readMoment('--to', flags.to, now);
	const from = flags.from === undefined ? to - defaultSince : readMoment('--from', flags.from, now);
	if (from >= to) {
		throw new UsageError(`--from must come before --to (from ${new Date(from).toISOString()}, to ${new Date(to).toISOString()})`);
	}

	return {from, to};
}

/** `--step`: the width points are merged into, or undefined for the points as recorded. */
export function readStep(text: string | undefined): number | undefined {
	if (text === undefined) {
		return undefined;
	}

	const step = parseSpan(text);
	if (step === undefined || step < 1000) {
		throw new UsageError(`--step "${text}" is not a step: write a span of a second or more, like 30s, 1m, 1h`);
	}

	return step;
}
