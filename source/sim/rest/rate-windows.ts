/** Requests per minute, hour and day one key owner may make (`podtop sim --v2-quota 60/3000/50000`). */
export type RestQuota = {readonly minute: number; readonly hour: number; readonly day: number};

/** The spec's example quota, which is the service's default plan. */
export const defaultRestQuota: RestQuota = {minute: 60, hour: 3000, day: 50_000};

const windows = [
	{name: 'minute', seconds: 60},
	{name: 'hour', seconds: 3600},
	{name: 'day', seconds: 86_400},
] as const;

type WindowName = (typeof windows)[number]['name'];

export type RestAdmission = {
	readonly ok: boolean;
	/** `RateLimit` and `RateLimit-Policy`, as every authenticated answer carries them. */
	readonly headers: Record<string, string>;
	/** Refused: seconds until the longest refusing window resets (`Retry-After`), and which it is. */
	readonly retryAfter?: number;
	readonly window?: WindowName;
};

/** `60/3000/50000` as a quota; a string saying what is wrong otherwise. */
export function parseRestQuota(text: string): RestQuota | string {
	const parts = text.split('/').map(Number);
	if (parts.length !== 3 || parts.some(part => !Number.isInteger(part) || part < 1)) {
		return `a quota is three whole numbers of requests per minute/hour/day, like 60/3000/50000, got "${text}"`;
	}

	const [minute, hour, day] = parts as [number, number, number];
	return {minute, hour, day};
}

/**
The v2 rate limits: per key owner, three fixed windows at once (minute, hour, day, aligned to the clock's
epoch), on the simulator's clock, so a fast clock or a pinned start reaches a reset without waiting. A
refused request counts against no window.
*/
export class RateWindows {
	readonly #quota: RestQuota;
	readonly #now: () => number;
	readonly #counts = new Map<string, Map<WindowName, {start: number; count: number}>>();
	readonly #policy: string;

	constructor(quota: RestQuota, now: () => number) {
		this.#quota = quota;
		this.#now = now;
		this.#policy = windows.map(({name, seconds}) => `"${name}";q=${quota[name]};w=${seconds}`).join(', ');
	}

	admit(owner: string): RestAdmission {
		const now = this.#now();
		let owned = this.#counts.get(owner);
		if (!owned) {
			owned = new Map();
			this.#counts.set(owner, owned);
		}

		const state = windows.map(({name, seconds}) => {
			const length = seconds * 1000;
			const start = Math.floor(now / length) * length;
			let slot = owned.get(name);
			if (slot?.start !== start) {
				slot = {start, count: 0};
				owned.set(name, slot);
			}

			return {name, slot, resetIn: Math.max(1, Math.ceil((start + length - now) / 1000))};
		});
		const refusing = state.filter(({name, slot}) => slot.count >= this.#quota[name]);
		if (refusing.length === 0) {
			for (const {slot} of state) {
				slot.count++;
			}
		}

		const longest = refusing.reduce<(typeof state)[number] | undefined>((worst, entry) => (worst && worst.resetIn >= entry.resetIn ? worst : entry), undefined);
		const headers = {
			ratelimit: state.map(({name, slot, resetIn}) => `"${name}";r=${Math.max(0, this.#quota[name] - slot.count)};t=${resetIn}`).join(', '),
			'ratelimit-policy': this.#policy,
		};
		return longest ? {ok: false, headers, retryAfter: longest.resetIn, window: longest.name} : {ok: true, headers};
	}
}
