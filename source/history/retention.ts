import {formatSpan, parseSpan} from '../lib/time-spec.js';
import {UsageError} from '../lib/usage-error.js';
import type {Tier} from './history-types.js';

/** How long each tier is kept. */
export type Retention = Readonly<Record<Tier, number>>;

/** Raw samples for two days, minute rollups for a month, hour rollups for a year (Netdata's tiers are the model). */
export const defaultRetention: Retention = {raw: 48 * 3_600_000, minute: 30 * 86_400_000, hour: 365 * 86_400_000};

/** Each tier's bucket width (raw has none: every poll). */
export const tierStepMs: Readonly<Record<Tier, number>> = {raw: 0, minute: 60_000, hour: 3_600_000};

/** `raw=48h,minute=30d,hour=1y` (any subset): the tiers named take those spans, the rest keep the defaults. */
export function parseRetention(text: string): Retention {
	const result: Record<Tier, number> = {...defaultRetention};
	for (const part of text.split(',')) {
		const [name, span] = part.split('=').map(piece => piece.trim());
		if (name !== 'raw' && name !== 'minute' && name !== 'hour') {
			throw new UsageError(`--retention: "${part.trim()}" names no tier; write raw=48h,minute=30d,hour=1y (any of the three)`);
		}

		const ms = span === undefined ? undefined : parseSpan(span);
		if (ms === undefined || ms <= 0) {
			throw new UsageError(`--retention: "${part.trim()}" needs a span like ${formatSpan(defaultRetention[name])} (s, m, h, d, w or y)`);
		}

		result[name] = ms;
	}

	if (result.raw > result.minute || result.minute > result.hour) {
		throw new UsageError(`--retention: each tier must be kept at least as long as the finer one before it (raw ≤ minute ≤ hour)`);
	}

	return result;
}
