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
