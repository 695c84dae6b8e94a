/** A bucket of bills, in dollars: what the figures below sum (the account's, or one resource's). */
export type BilledBucket = {readonly from: number; readonly to: number; readonly total: number};

export const hourMs = 3_600_000;
export const dayMs = 24 * hourMs;

/** The start of the UTC day (the service bills in UTC). */
export const utcDay = (at: number) => Math.floor(at / dayMs) * dayMs;
export const utcHour = (at: number) => Math.floor(at / hourMs) * hourMs;
/** The start of the UTC month `months` from the one of `at`. */
export const utcMonth = (at: number, months = 0) => {
	const date = new Date(at);
	return Date.UTC(date.getUTCFullYear(), date.getUTCMonth() + months, 1);
};

const sumWithin = (rows: readonly BilledBucket[], from: number, to: number) =>
	rows.reduce((sum, row) => (row.from >= from && row.from < to ? sum + row.total : sum), 0);

/** The day figures (UTC days), month to date, and the forecast to month end at `perHour`. */
export type SpendFigures = {
	readonly today: number;
	readonly yesterday: number;
	readonly lastWeek: number;
	readonly monthToDate: number;
	readonly forecast: number | undefined;
};

/** The Spend pane's figures and the `budget` alert's forecast: month to date plus `perHour` to the month's end. */
export function spendFigures(rows: readonly BilledBucket[], now: number, perHour: number | undefined): SpendFigures {
	const today = utcDay(now);
	const monthToDate = sumWithin(rows, utcMonth(now), today + dayMs);
	return {
		today: sumWithin(rows, today, today + dayMs),
		yesterday: sumWithin(rows, today - dayMs, today),
		lastWeek: sumWithin(rows, today - 7 * dayMs, today - 6 * dayMs),
		monthToDate,
		forecast: perHour === undefined ? undefined : monthToDate + (perHour * Math.max(0, utcMonth(now, 1) - now)) / hourMs,
	};
}
