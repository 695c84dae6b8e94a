import {formatPrice} from './numbers.js';

/** What a chart's numbers are: counts, percentages (0–100), shares (0–1), dollars, or things per minute. */
export type ValueUnit = 'count' | 'percent' | 'share' | 'dollars' | 'rate';

const compact = (value: number): string => {
	const size = Math.abs(value);
	if (size >= 1_000_000) {
		return `${(value / 1_000_000).toFixed(size < 10_000_000 ? 1 : 0)}M`;
	}

	if (size >= 1000) {
		return `${(value / 1000).toFixed(size < 10_000 ? 1 : 0)}k`;
	}

	return Number.isInteger(value) || size >= 10 ? String(Math.round(value)) : value.toFixed(1);
};

/** A value as a chart's axis and legend say it: `12`, `1.2k`, `0.5`, `42%`, `$2.49`, `3.2/m`. */
export function formatAxisValue(value: number | null | undefined, unit: ValueUnit): string {
	if (value === null || value === undefined || !Number.isFinite(value)) {
		return '–';
	}

	switch (unit) {
		case 'count': {
			return compact(value);
		}

		case 'percent': {
			return `${Math.round(value)}%`;
		}

		case 'share': {
			return `${Math.round(value * 100)}%`;
		}

		case 'dollars': {
			return formatPrice(value);
		}

		case 'rate': {
			return `${compact(value)}/m`;
		}
	}
}

/** The values at the bottom and the top of a chart. */
export type ValueRange = {readonly min: number; readonly max: number};

/**
The range a chart spans for its values: from zero (counts, rates, percentages) or from the lowest
(prices, which drift a few percent), to the highest (a whole number for things counted whole, like
workers), or to `ceiling` (100 %) when given. Undefined when no value is known. A flat series sits
mid-height.
*/
export function valueRange(
	series: ReadonlyArray<ReadonlyArray<number | null>>,
	{fromZero = true, ceiling, whole = false}: {readonly fromZero?: boolean; readonly ceiling?: number; readonly whole?: boolean} = {},
): ValueRange | undefined {
	let low = Number.POSITIVE_INFINITY;
	let high = Number.NEGATIVE_INFINITY;
	for (const values of series) {
		for (const value of values) {
			if (typeof value === 'number' && Number.isFinite(value)) {
				low = Math.min(low, value);
				high = Math.max(high, value);
			}
		}
	}

	if (low > high) {
		return undefined;
	}

	if (ceiling !== undefined) {
		return {min: Math.min(0, low), max: Math.max(ceiling, high)};
	}

	if (fromZero) {
		const min = Math.min(0, low);
		const max = whole ? Math.ceil(high) : high;
		return {min, max: max > min ? max : min + 1};
	}

	if (high > low) {
		return {min: low, max: high};
	}

	const pad = Math.max(Math.abs(low) * 0.05, 0.01);
	return {min: low - pad, max: high + pad};
}
