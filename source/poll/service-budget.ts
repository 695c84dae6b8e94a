import type {RateLimitAnswer, ServiceWindow} from '../api/rate-limit-headers.js';
import type {BudgetSlowdown} from '../store/types.js';
import type {Budget, BudgetSnapshot} from './budget.js';

/** A window as podtop follows it between answers. */
type Window = {
	readonly name: string;
	readonly limit: number;
	readonly windowMs: number;
	/** What the service said was left (`r`), less what it has counted since by podtop's reckoning. */
	remaining: number;
	/** When podtop takes the window to reset: the service's `t`, plus a second for its rounding. */
	resetAt: number;
	/** Podtop's own requests in this period of the window. */
	used: number;
};

/** `t` is whole seconds: a window is taken to reset a second after it says, so podtop never starts the next one early. */
const resetSlackMs = 1000;
/** Requests at once while the windows are known; one while they are not. */
const knownConcurrency = 2;
/**
Polls that may go at once, ahead of the spreading, when podtop has asked nothing for a while (a fresh
session, an idle spell): a fifth of podtop's share of its smallest window, at most six. A fresh
dashboard's first reads are three lists (endpoints, pods, GPU types) and an open detail's a few more;
spread at the default share (30 a minute, 2 s apart) they took 4 s to fill the panes, at once they
take one round trip. Six of 30 leaves the rest of the minute to the spreading.
*/
const burstCap = 6;
const backoffBaseMs = 1000;
const backoffCapMs = 60_000;
/**
The spec's example quota (60 a minute, 3,000 an hour, 50,000 a day), the windows podtop assumes
until an answer states them, or when it cannot read them: spaced for the tightest at the share.
*/
const assumedWindows = [
	{limit: 60, windowMs: 60_000},
	{limit: 3000, windowMs: 3_600_000},
	{limit: 50_000, windowMs: 86_400_000},
];

/**
The management API's budget (REST v2), planned inside the windows the service states on every
answer (`RateLimit`, `RateLimit-Policy`): podtop uses at most `share` of each window (other tools
share the key), and at most `share` of what is left of it (so another tool spending the key slows
podtop down rather than both into a 429), spread evenly until the window resets: it slows before a
window runs out, not at it. A user's action skips the spreading, never the share; so do the polls of
a burst after a quiet spell (see `burstCap`), which count in the windows like any other. On a 429 it waits
the longest of `Retry-After` and every window with nothing left. Without readable windows it spaces
requests for the spec's example quota at the share, one at a time.
*/
export class ServiceBudget implements Budget {
	readonly key: string;
	readonly #share: number;
	readonly #random: () => number;
	#windows: Window[] | undefined;
	/** An answer that should have stated the windows did not, or stated them malformed. */
	#unreadable = false;
	/** A 429 came while podtop's reckoning left room: the service counted more than podtop knew of. */
	#surprised = false;
	#inFlight = 0;
	#sentTotal = 0;
	#lastSend = Number.NEGATIVE_INFINITY;
	/** The spreading's gap after the last request: a quiet spell is measured in it. */
	#lastGapMs = Number.POSITIVE_INFINITY;
	/** Polls that may still go ahead of the spreading: the whole burst at first, one back for each gap that passes unused. */
	#burst: number | undefined;
	#backoffUntil = 0;
	#attempt = 0;

	constructor(key: string, share: number, random: () => number = Math.random) {
		this.key = key;
		this.#share = share;
		this.#random = random;
	}

	/**
	What an answer said, taken in at `now` (before the request that brought it is released). An
	answer without the headers changes nothing unless it is a success (an edge proxy's 502 or 429
	carries none); one with malformed headers, or a success without them, falls back to conservative spacing.
	*/
	observe(answer: RateLimitAnswer, status: number, now: number): void {
		if (answer.windows) {
			this.#take(answer.windows.windows, now);
		} else if (answer.stated || (status >= 200 && status < 300)) {
			this.#windows = undefined;
			this.#unreadable = true;
		}

		if (status === 429) {
			this.#refused(now, answer.retryAfterMs);
		}
	}

	waitMs(now: number, urgent = false): number {
		if (now < this.#backoffUntil) {
			return this.#backoffUntil - now;
		}

		if (this.#inFlight >= (this.#windows ? knownConcurrency : 1)) {
			return Number.POSITIVE_INFINITY;
		}

		return Math.max(0, this.#nextAt(now, urgent) - now);
	}

	tryAcquire(now: number, urgent = false): number {
		const wait = this.waitMs(now, urgent);
		if (wait > 0) {
			return Number.isFinite(wait) ? Math.max(1, wait) : wait;
		}

		if (this.#windows && !urgent) {
			// Ahead of the spreading: a request of the burst; on time or late: the gaps it left unused come back to the burst.
			const burst = this.#burstNow(now);
			this.#burst = this.#spreadAt(now) > now ? burst - 1 : burst;
		}

		for (const window of this.#windows ?? []) {
			window.used++;
			window.remaining--;
		}

		this.#sentTotal++;
		this.#lastSend = now;
		this.#lastGapMs = this.#gapMs(now);
		this.#inFlight++;
		return 0;
	}

	release(): void {
		this.#inFlight = Math.max(0, this.#inFlight - 1);
	}

	rateLimited(now: number, retryAfterMs?: number): number {
		const before = this.#backoffUntil;
		this.#refused(now, retryAfterMs);
		if (this.#backoffUntil <= now) {
			// Nothing said how long (an edge proxy's empty 429): exponential backoff with full jitter.
			this.#backoffUntil = now + this.#random() * Math.min(backoffCapMs, backoffBaseMs * 2 ** this.#attempt);
		}

		this.#attempt = Math.min(this.#attempt + 1, 16);
		return Math.max(0, this.#backoffUntil - Math.max(now, before));
	}

	succeeded(): void {
		this.#attempt = 0;
		this.#surprised = false;
	}

	movedFrom(before: BudgetSnapshot | undefined, now: number): boolean {
		if (!before) {
			return true;
		}

		const after = this.snapshot(now);
		return (
			(before.backoffUntil !== undefined) !== (after.backoffUntil !== undefined) ||
			before.slowed?.reason !== after.slowed?.reason ||
			before.slowed?.window !== after.slowed?.window ||
			before.windows?.length !== after.windows?.length ||
			(after.windows ?? []).some((window, index) => before.windows?.[index]?.remaining !== window.remaining)
		);
	}

	snapshot(now: number): BudgetSnapshot {
		this.#roll(now);
		const windows = this.#windows ?? [];
		// The gauge is the fullest window of podtop's share.
		const fullest = windows.reduce<Window | undefined>((worst, window) => (worst && this.#load(worst) >= this.#load(window) ? worst : window), undefined);
		const slowed = this.#slowdown(now);
		return {
			key: this.key,
			used: fullest?.used ?? 0,
			allowed: fullest ? this.#ownShare(fullest) : 0,
			windowMs: fullest?.windowMs ?? assumedWindows[0]!.windowMs,
			inFlight: this.#inFlight,
			concurrency: this.#windows ? knownConcurrency : 1,
			...(this.#backoffUntil > now ? {backoffUntil: this.#backoffUntil} : {}),
			...(this.#windows ? {windows: windows.map(({name, remaining, limit}) => ({name, remaining: Math.max(0, remaining), limit}))} : {}),
			...(slowed ? {slowed} : {}),
		};
	}

	#take(stated: readonly ServiceWindow[], now: number): void {
		this.#roll(now);
		// Requests still on the way besides the one answering may not be counted in `r` yet.
		const uncounted = Math.max(0, this.#inFlight - 1);
		const windows = stated.map(({name, limit, remaining, resetSeconds, windowSeconds}) => {
			const windowMs = windowSeconds * 1000;
			const resetAt = now + resetSeconds * 1000 + resetSlackMs;
			const known = this.#windows?.find(window => window.name === name);
			const samePeriod = known?.windowMs === windowMs && Math.abs(known.resetAt - resetAt) <= Math.min(windowMs / 4, 3000);
			// Podtop's use of a period it did not know of is at most what it sent, and at most what the service counted of everyone.
			const used = samePeriod ? known.used : Math.min(known?.used ?? this.#sentTotal, limit - remaining + uncounted);
			return {name, limit, windowMs, remaining: remaining - uncounted, resetAt, used};
		});
		this.#windows = windows;
		this.#unreadable = false;
	}

	/** A window whose reset has passed starts afresh: podtop has used none of it, and takes it as full until an answer says. */
	#roll(now: number): void {
		for (const window of this.#windows ?? []) {
			if (now >= window.resetAt) {
				window.resetAt += Math.ceil((now - window.resetAt + 1) / window.windowMs) * window.windowMs;
				window.used = 0;
				window.remaining = window.limit;
			}
		}
	}

	#refused(now: number, retryAfterMs: number | undefined): void {
		this.#roll(now);
		let until = retryAfterMs === undefined ? now : now + retryAfterMs;
		const empty = (this.#windows ?? []).filter(window => window.remaining <= 0);
		for (const window of empty) {
			until = Math.max(until, window.resetAt);
		}

		// Refused while every window had room for podtop's share: someone else spent what podtop counted on.
		this.#surprised ||= empty.length === 0 && this.#windows !== undefined;
		this.#backoffUntil = Math.max(this.#backoffUntil, until);
	}

	#ownShare(window: Window): number {
		return Math.floor(this.#share * window.limit);
	}

	#load(window: Window): number {
		return window.used / Math.max(1, this.#ownShare(window));
	}

	/**
	How many more requests podtop may send in a window's period: its share of the window, or less when
	other tools on the key spent some of it: its share of what they left (what is left now and what
	podtop used), so that two tools at half each never both run into the window's end.
	*/
	#allowance(window: Window): {readonly left: number; readonly byOthers: boolean} {
		const own = this.#ownShare(window);
		const leftByOthers = Math.max(0, window.remaining) + window.used;
		// Requests on the way may be counted in `remaining` already: only a shortfall beyond them is another tool's doing.
		return {
			left: Math.min(own, Math.floor(this.#share * leftByOthers)) - window.used,
			byOthers: Math.floor(this.#share * (leftByOthers + this.#inFlight)) < own,
		};
	}

	/**
	When the next request may go: once every window has some of podtop's share left, at once for a
	user's action or while the burst lasts, otherwise at the latest of every window's even spreading.
	*/
	#nextAt(now: number, urgent: boolean): number {
		if (!this.#windows) {
			const spacing = Math.max(...assumedWindows.map(({limit, windowMs}) => windowMs / Math.max(1, Math.floor(this.#share * limit))));
			return urgent || this.#lastSend === Number.NEGATIVE_INFINITY ? now : this.#lastSend + spacing;
		}

		this.#roll(now);
		let next = now;
		for (const window of this.#windows) {
			if (this.#allowance(window).left < 1) {
				next = Math.max(next, window.resetAt);
			}
		}

		return urgent || this.#burstNow(now) >= 1 ? next : Math.max(next, this.#spreadAt(now));
	}

	/** When the even spreading lets the next poll go: `left` requests over the `left + 1` gaps between the last and each window's reset, the latest of them. */
	#spreadAt(now: number): number {
		if (this.#lastSend === Number.NEGATIVE_INFINITY) {
			return now;
		}

		let next = now;
		for (const window of this.#windows ?? []) {
			const {left} = this.#allowance(window);
			if (left >= 1) {
				next = Math.max(next, this.#lastSend + (window.resetAt - this.#lastSend) / (left + 1));
			}
		}

		return next;
	}

	/** The spreading's gap from `now` (the windows rolled): the longest of every window's. */
	#gapMs(now: number): number {
		let gap = 0;
		for (const window of this.#windows ?? []) {
			gap = Math.max(gap, (window.resetAt - now) / (Math.max(0, this.#allowance(window).left) + 1));
		}

		return gap;
	}

	/**
	The polls that may go now ahead of the spreading: the whole burst before the first, then what is
	left of it plus one for each gap of the spreading that passed with nothing sent (the gap after a
	request is its own: only gaps beyond it were unused), at most the burst.
	*/
	#burstNow(now: number): number {
		const size = Math.max(1, Math.min(burstCap, Math.floor(Math.min(...(this.#windows ?? []).map(window => this.#ownShare(window))) / 5)));
		if (this.#burst === undefined) {
			return size;
		}

		// No gap known (the last request went while the windows were not): as after a long quiet spell.
		const unusedGaps = this.#lastGapMs > 0 ? Math.max(0, Math.floor((now - this.#lastSend) / this.#lastGapMs) - 1) : size;
		return Math.min(size, this.#burst + unusedGaps);
	}

	#slowdown(now: number): BudgetSlowdown | undefined {
		if (this.#backoffUntil > now) {
			const spent = this.#windows?.find(window => window.remaining <= 0);
			return {reason: 'rate-limited', ...(spent ? {window: spent.name} : {})};
		}

		if (!this.#windows) {
			return this.#unreadable ? {reason: 'unreadable'} : undefined;
		}

		for (const window of this.#windows) {
			const {left, byOthers} = this.#allowance(window);
			if (byOthers) {
				return {reason: 'others', window: window.name};
			}

			// The share runs out at a window's very end by design (spread to the reset): a slowdown only when it ran out early.
			if (left < 1 && window.resetAt - now > window.windowMs / 10) {
				return {reason: 'spent', window: window.name};
			}
		}

		return this.#surprised ? {reason: 'others'} : undefined;
	}
}
