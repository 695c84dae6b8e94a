/** `0.4213` → `42%`; undefined → `–`. */
export function formatPercent(share: number | undefined, digits = 0): string {
	return share === undefined || !Number.isFinite(share) ? '–' : `${(share * 100).toFixed(digits)}%`;
}

/** Dollars with sensible precision: `$0.34`, `$0.278`, `$23.92`. */
export function formatPrice(value: number | null | undefined): string {
	if (value === null || value === undefined) {
		return '–';
	}

	return `$${value < 1 ? value.toFixed(3).replace(/0$/, '') : value.toFixed(2)}`;
}

/** Dollars per hour: `$0.34/h`, `$23.92/h`. */
export function formatDollarsPerHour(value: number | null | undefined): string {
	return value === null || value === undefined ? '–' : `${formatPrice(value)}/h`;
}

/** Compact counts: 999, 1.2k, 34k, 1.2M. */
export function formatCount(value: number | undefined): string {
	if (value === undefined) {
		return '–';
	}

	if (value < 1000) {
		return String(Math.round(value));
	}

	if (value < 1_000_000) {
		return `${(value / 1000).toFixed(value < 10_000 ? 1 : 0)}k`;
	}

	return `${(value / 1_000_000).toFixed(1)}M`;
}

/** An endpoint's workers range, `1-5`; `–` when the service sent none. */
export function formatWorkerRange(workersMin: number | null | undefined, workersMax: number | null | undefined): string {
	return workersMin === undefined || workersMin === null ? '–' : `${workersMin}-${workersMax ?? '?'}`;
}

export function formatRate(perMinute: number | undefined): string {
	return perMinute === undefined ? '–' : `${perMinute < 10 ? perMinute.toFixed(1) : Math.round(perMinute)}/m`;
}

/** Bytes in binary units, as the service states its limits: `312 B`, `1.2 KB`, `10 MB`. */
export function formatBytes(bytes: number): string {
	if (bytes < 1024) {
		return `${bytes} B`;
	}

	const [value, unit] = bytes < 1024 * 1024 ? [bytes / 1024, 'KB'] : [bytes / 1024 / 1024, 'MB'];
	return `${Number.isInteger(value) ? value : value.toFixed(1)} ${unit}`;
}

/** A cost as the service bills it, without float noise: `$0.02097152`. */
export function formatCost(dollars: number): string {
	return `$${Number(dollars.toFixed(10)).toString()}`;
}
