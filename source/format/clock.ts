import {formatDuration} from './duration.js';

const pad = (value: number) => String(value).padStart(2, '0');
const months = ['Jan', 'Feb', 'Mar', 'Apr', 'May', 'Jun', 'Jul', 'Aug', 'Sep', 'Oct', 'Nov', 'Dec'];

/** A moment in local time: `03:12:40` today, `Nov 22 03:12:40` another day (`now` decides which). */
export function formatClock(at: number, now = Date.now()): string {
	const date = new Date(at);
	const time = `${pad(date.getHours())}:${pad(date.getMinutes())}:${pad(date.getSeconds())}`;
	return new Date(now).toDateString() === date.toDateString() ? time : `${months[date.getMonth()]} ${date.getDate()} ${time}`;
}

/** How long ago: `41m06s ago`, `3h05m ago`, `2d04h ago`. */
export function formatAgo(at: number, now: number): string {
	return `${formatDuration(Math.max(0, (now - at) / 1000))} ago`;
}
