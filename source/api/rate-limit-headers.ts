import {parseRetryAfter} from './errors.js';

/** One of the service's rate windows (minute, hour, day) as an answer stated it. */
export type ServiceWindow = {
	/** The window's name as the service gives it (`minute`, `hour`, `day`): 1–16 token characters. */
	readonly name: string;
	/** Requests the window allows (`q`). */
	readonly limit: number;
	/** Requests left in it when the answer was made (`r`), at most `limit`. */
	readonly remaining: number;
	/** Seconds until it resets (`t`), at most `windowSeconds`. */
	readonly resetSeconds: number;
	/** Its length in seconds (`w`). */
	readonly windowSeconds: number;
};

/** The v2 windows one answer reported, in the order `RateLimit-Policy` lists them. */
export type ServiceWindows = {readonly windows: readonly ServiceWindow[]};

/** What podtop reads of a v2 answer's headers: a WHATWG `Headers`, or anything with its `get`. */
export type HeaderReader = {readonly get: (name: string) => string | null | undefined};

/** Longer headers are not read: the service's three windows take about 80 characters. */
const maxHeaderLength = 1024;
/** More members than this make the header malformed: the service sends three. */
const maxMembers = 8;
/** The largest count or number of seconds accepted (sf-integer allows 15 digits; a year of seconds is 8). */
const maxValue = 1e12;
/** `Retry-After` longer than a day (the service's longest window) is read as a day. */
const maxRetryAfterMs = 86_400_000;

type Member = {readonly name: string; readonly parameters: ReadonlyMap<string, number>};

const memberPattern = /^(?:"([\w.*-]{1,16})"|([a-z*][\w.*:/-]{0,15}))((?:; ?[a-z*][\w.*-]{0,15}=\d{1,15})*)$/i;

/**
A structured-field list of items whose values name a window and whose parameters are whole numbers
(`"minute";r=12;t=41, "hour";r=2800;t=1812`), as RFC 8941 writes it, within the bounds above.
Undefined when any member is not of that form or a name repeats: a list that fails to parse is ignored whole.
*/
function parseMembers(text: string | null | undefined): Member[] | undefined {
	if (typeof text !== 'string' || text.length === 0 || text.length > maxHeaderLength) {
		return undefined;
	}

	const parts = text.split(',');
	if (parts.length > maxMembers) {
		return undefined;
	}

	const members: Member[] = [];
	for (const part of parts) {
		const match = memberPattern.exec(part.trim());
		if (!match) {
			return undefined;
		}

		const name = (match[1] ?? match[2]!).toLowerCase();
		if (members.some(member => member.name === name)) {
			return undefined;
		}

		const parameters = new Map<string, number>();
		for (const parameter of match[3]!.split(';').slice(1)) {
			const [key, value] = parameter.trim().split('=') as [string, string];
			// A repeated parameter: the last wins (RFC 8941, 4.2.3.2).
			parameters.set(key.toLowerCase(), Number(value));
		}

		members.push({name, parameters});
	}

	return members;
}

const whole = (value: number | undefined): value is number => value !== undefined && Number.isSafeInteger(value) && value <= maxValue;

/**
The windows of `RateLimit` (`r` left, `t` seconds to reset) and `RateLimit-Policy` (`q` allowed, `w`
seconds long), joined by name. Undefined when either is missing or malformed, or no window is in
both: the scheduler then spaces its requests conservatively. A window the policy allows nothing in
(`q=0`) or of no length is malformed; `r` over `q` and `t` over `w` are cut to them.
*/
export function parseServiceWindows(rateLimit: string | null | undefined, policy: string | null | undefined): ServiceWindows | undefined {
	const states = parseMembers(rateLimit);
	const policies = parseMembers(policy);
	if (!states || !policies) {
		return undefined;
	}

	const windows: ServiceWindow[] = [];
	for (const {name, parameters} of policies) {
		const limit = parameters.get('q');
		const windowSeconds = parameters.get('w');
		if (!whole(limit) || !whole(windowSeconds) || limit < 1 || windowSeconds < 1) {
			return undefined;
		}

		const state = states.find(member => member.name === name);
		if (!state) {
			continue;
		}

		const remaining = state.parameters.get('r');
		const resetSeconds = state.parameters.get('t');
		if (!whole(remaining) || !whole(resetSeconds)) {
			return undefined;
		}

		windows.push({name, limit, remaining: Math.min(remaining, limit), resetSeconds: Math.min(resetSeconds, windowSeconds), windowSeconds});
	}

	return windows.length > 0 ? {windows} : undefined;
}

/** `Retry-After` (seconds, or an HTTP date) as milliseconds from `now`, at most a day; undefined when absent or unreadable. */
export function parseRetryAfterHeader(value: string | null | undefined, now = Date.now()): number | undefined {
	if (typeof value !== 'string' || value.length > 64) {
		return undefined;
	}

	const ms = parseRetryAfter(value.trim(), now);
	return ms === undefined || !Number.isFinite(ms) ? undefined : Math.min(ms, maxRetryAfterMs);
}

/** What one v2 answer says of the budget: its windows, whether it sent either header at all, and on a 429 how long to wait. */
export type RateLimitAnswer = {readonly windows: ServiceWindows | undefined; readonly stated: boolean; readonly retryAfterMs: number | undefined};

/** Reads `RateLimit`, `RateLimit-Policy` and `Retry-After` from an answer's headers; never throws. */
export function readRateLimitHeaders(headers: HeaderReader, now = Date.now()): RateLimitAnswer {
	const read = (name: string) => {
		try {
			const value = headers.get(name);
			return typeof value === 'string' ? value : undefined;
		} catch {
			return undefined;
		}
	};

	const rateLimit = read('ratelimit');
	const policy = read('ratelimit-policy');
	return {
		windows: parseServiceWindows(rateLimit, policy),
		stated: rateLimit !== undefined || policy !== undefined,
		retryAfterMs: parseRetryAfterHeader(read('retry-after'), now),
	};
}
