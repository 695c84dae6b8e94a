const pad = (value: number) => String(value).padStart(2, '0');

/** A moment in local time for people: `2026-11-20 03:12:40`; `dayShown: false` leaves the date out (`03:12:40`), `seconds: false` the seconds. */
export function formatMoment(at: number, {dayShown = true, seconds = true}: {readonly dayShown?: boolean; readonly seconds?: boolean} = {}): string {
	const date = new Date(at);
	const day = `${date.getFullYear()}-${pad(date.getMonth() + 1)}-${pad(date.getDate())}`;
	const time = `${pad(date.getHours())}:${pad(date.getMinutes())}${seconds ? `:${pad(date.getSeconds())}` : ''}`;
	return dayShown ? `${day} ${time}` : time;
}

/** Whether two moments fall on the same local day (a table of them then shows times only). */
export function sameDay(a: number, b: number): boolean {
	const [first, second] = [new Date(a), new Date(b)];
	return first.getFullYear() === second.getFullYear() && first.getMonth() === second.getMonth() && first.getDate() === second.getDate();
}

/** A span between two moments, the end without its date when it is the same day: `2026-11-20 03:00:00 → 03:20:00`. */
export function formatRange(from: number, to: number): string {
	return `${formatMoment(from)} → ${formatMoment(to, {dayShown: !sameDay(from, to)})}`;
}
