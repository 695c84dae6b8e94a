const second = 1000;
const minute = 60 * second;
const hour = 60 * minute;
const day = 24 * hour;

/** Spacings between labels, finest first: the finest whose labels fit is used. */
const spacings = [
	10 * second,
	15 * second,
	30 * second,
	minute,
	2 * minute,
	5 * minute,
	10 * minute,
	15 * minute,
	30 * minute,
	hour,
	2 * hour,
	3 * hour,
	6 * hour,
	12 * hour,
	day,
	2 * day,
	7 * day,
	14 * day,
];

const months = ['Jan', 'Feb', 'Mar', 'Apr', 'May', 'Jun', 'Jul', 'Aug', 'Sep', 'Oct', 'Nov', 'Dec'];
const pad = (value: number) => String(value).padStart(2, '0');

/** A label at a tick, in local time: `03:12:30` under a minute apart, `03:15` under a day, `Nov 21` from a day. */
export function tickLabel(at: number, spacing: number): string {
	const date = new Date(at);
	if (spacing >= day) {
		return `${months[date.getMonth()]} ${date.getDate()}`;
	}

	const time = `${pad(date.getHours())}:${pad(date.getMinutes())}`;
	return spacing < minute ? `${time}:${pad(date.getSeconds())}` : time;
}

/** The ticks from `from` to `to` every `spacing`, on round local times (the hour, midnight). */
export function ticks(from: number, to: number, spacing: number): number[] {
	const result: number[] = [];
	if (spacing >= day) {
		const date = new Date(from);
		date.setHours(0, 0, 0, 0);
		const days = spacing / day;
		// Every n-th day counted from the epoch, so the ticks stay put as the window moves.
		while (date.getTime() < from || Math.round(date.getTime() / day) % days !== 0) {
			date.setDate(date.getDate() + 1);
		}

		for (; date.getTime() <= to; date.setDate(date.getDate() + days)) {
			result.push(date.getTime());
		}

		return result;
	}

	const offset = -new Date(from).getTimezoneOffset() * minute;
	for (let at = Math.ceil((from + offset) / spacing) * spacing - offset; at <= to; at += spacing) {
		result.push(at);
	}

	return result;
}

/**
A time axis `width` characters wide under a chart from `from` to `to`: labels on round times, each
starting where its time falls, spaced as closely as they fit with two spaces between.
*/
export function timeAxis(from: number, to: number, width: number): string {
	const characters = Array.from({length: Math.max(0, width)}, () => ' ');
	const span = to - from;
	if (width <= 0 || span <= 0) {
		return characters.join('');
	}

	const spacing =
		spacings.find(candidate => {
			const length = tickLabel(from, candidate).length + 2;
			return (candidate / span) * width >= length;
		}) ?? spacings.at(-1)!;
	let free = 0;
	for (const at of ticks(from, to, spacing)) {
		const label = tickLabel(at, spacing);
		const column = Math.round(((at - from) / span) * width);
		if (column < free || column + label.length > width) {
			continue;
		}

		for (const [offset, character] of [...label].entries()) {
			characters[column + offset] = character;
		}

		free = column + label.length + 2;
	}

	return characters.join('');
}
