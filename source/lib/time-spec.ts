const unitMs: Readonly<Record<string, number>> = {
	ms: 1,
	s: 1000,
	m: 60_000,
	h: 3_600_000,
	d: 86_400_000,
	w: 7 * 86_400_000,
	y: 365 * 86_400_000,
};

/** `90s`, `45m`, `1h30m`, `48h`, `30d`, `1y` in milliseconds; undefined for anything else. */
export function parseSpan(text: string): number | undefined {
	const trimmed = text.trim();
	if (!/^(?:\d+(?:\.\d+)?(?:ms|[smhdwy]))+$/.test(trimmed)) {
		return undefined;
	}

	let total = 0;
	for (const [, amount, unit] of trimmed.matchAll(/(\d+(?:\.\d+)?)(ms|[smhdwy])/g)) {
		total += Number(amount) * unitMs[unit!]!;
	}

	return total;
}

/** A span the way people write it back: `48h`, `30d`, `1y`, `10m`. */
export function formatSpan(ms: number): string {
	for (const [unit, size] of [
		['y', unitMs.y!],
		['d', unitMs.d!],
		['h', unitMs.h!],
		['m', unitMs.m!],
		['s', unitMs.s!],
	] as const) {
		if (ms >= size && ms % size === 0) {
			return `${ms / size}${unit}`;
		}
	}

	return `${ms}ms`;
}

/**
A moment as people write it: a span ago (`45m`, `2h`), an ISO time (`2026-11-23T03:12:00Z`,
`2026-11-23 03:12`), or a time of day (`03:12`, `03:12:40`: today's, or yesterday's when that is
still to come). Undefined when it does not parse.
*/
export function parseMoment(text: string, now: number): number | undefined {
	const trimmed = text.trim();
	const ago = parseSpan(trimmed);
	if (ago !== undefined) {
		return now - ago;
	}

	const clock = /^(\d{1,2}):(\d{2})(?::(\d{2}))?$/.exec(trimmed);
	if (clock) {
		const [hours, minutes, seconds] = [Number(clock[1]), Number(clock[2]), Number(clock[3] ?? 0)];
		if (hours > 23 || minutes > 59 || seconds > 59) {
			return undefined;
		}

		const day = new Date(now);
		day.setHours(hours, minutes, seconds, 0);
		const at = day.getTime();
		return at > now ? at - unitMs.d! : at;
	}

	if (!/^\d{4}-\d{2}-\d{2}(?:[T ]\d{1,2}:\d{2}(?::\d{2}(?:\.\d+)?)?(?:Z|[+-]\d{2}:?\d{2})?)?$/.test(trimmed)) {
		return undefined;
	}

	const at = Date.parse(trimmed.replace(' ', 'T'));
	return Number.isNaN(at) ? undefined : at;
}

/** What a moment that does not parse should look like, for the error that says so. */
export const momentHelp = 'a time like 03:12, 2026-11-23T03:12:00Z, or a span ago like 45m, 6h, 2d';
