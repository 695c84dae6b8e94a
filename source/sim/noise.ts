/**
Smooth, deterministic value noise in [0, 1]: the same (seed, time) always gives the same value,
and values drift gently over `periodMs`. Lets the fleet's utilisation, stock and spot prices be
pure functions of simulated time: no timers, no state, and 2,000 pods cost nothing while unread.
*/
function hash(seed: number, index: number): number {
	let h = Math.imul(seed ^ 0x9e_37_79_b9, 0x85_eb_ca_6b) ^ Math.imul(index, 0xc2_b2_ae_35);
	h ^= h >>> 15;
	h = Math.imul(h, 0x27_d4_eb_2d);
	h ^= h >>> 13;
	return (h >>> 0) / 4_294_967_296;
}

export function smoothNoise(seed: number, timeMs: number, periodMs: number): number {
	const position = timeMs / periodMs;
	const index = Math.floor(position);
	const fraction = position - index;
	const eased = (1 - Math.cos(fraction * Math.PI)) / 2;
	return hash(seed, index) * (1 - eased) + hash(seed, index + 1) * eased;
}

/** Two octaves: a slow swing plus faster jitter, still in [0, 1]. */
export function layeredNoise(seed: number, timeMs: number, periodMs: number): number {
	return smoothNoise(seed, timeMs, periodMs) * 0.75 + smoothNoise(seed + 7919, timeMs, periodMs / 6) * 0.25;
}

export function seedOf(text: string): number {
	let h = 2_166_136_261;
	for (let index = 0; index < text.length; index++) {
		h ^= text.codePointAt(index)!;
		h = Math.imul(h, 16_777_619);
	}

	return h >>> 0;
}
