/** Seconds as the shortest honest duration: `45s`, `12m`, `3h05m`, `9d04h`. */
export function formatDuration(seconds: number | null | undefined): string {
	if (seconds === null || seconds === undefined || !Number.isFinite(seconds) || seconds < 0) {
		return '–';
	}

	const whole = Math.floor(seconds);
	if (whole < 60) {
		return `${whole}s`;
	}

	if (whole < 3600) {
		return `${Math.floor(whole / 60)}m${String(whole % 60).padStart(2, '0')}s`;
	}

	if (whole < 86_400) {
		return `${Math.floor(whole / 3600)}h${String(Math.floor((whole % 3600) / 60)).padStart(2, '0')}m`;
	}

	return `${Math.floor(whole / 86_400)}d${String(Math.floor((whole % 86_400) / 3600)).padStart(2, '0')}h`;
}

/** Milliseconds as a duration (job delay and execution times). */
export function formatMillis(ms: number | null | undefined): string {
	if (ms === null || ms === undefined) {
		return '–';
	}

	return ms < 1000 ? `${Math.round(ms)}ms` : ms < 60_000 ? `${(ms / 1000).toFixed(1)}s` : formatDuration(ms / 1000);
}

/** How old data is: `now`, `4s`, `2m`… */
export function formatAge(sinceMs: number | undefined, now: number): string {
	if (sinceMs === undefined) {
		return 'never';
	}

	const seconds = Math.max(0, (now - sinceMs) / 1000);
	return seconds < 1 ? 'now' : formatDuration(seconds);
}

/** The steps the header's data age is said in (seconds): it changes words only when the age crosses one, not every second. */
const ageSteps = [5, 10, 15, 30, 60, 120, 300, 600, 1800, 3600];

/** An age as the step it is within: `≤5s`, `≤30s`, `≤1m`, `≤10m`; past an hour, the age itself (`>1h`: `1h20m`). */
export function formatAgeBound(ageMs: number, atMost = '≤'): string {
	const seconds = Math.max(0, ageMs / 1000);
	const step = ageSteps.find(limit => seconds <= limit);
	if (step === undefined) {
		return formatDuration(seconds);
	}

	return `${atMost}${step < 60 ? `${step}s` : `${step / 60}m`}`;
}
