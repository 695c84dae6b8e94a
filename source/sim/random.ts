/** A small, fast, seeded PRNG (mulberry32) so a given `--seed` replays the same fleet. */
export type Random = {
	/** A float in [0, 1). */
	readonly next: () => number;
	readonly int: (min: number, max: number) => number;
	readonly between: (min: number, max: number) => number;
	readonly chance: (probability: number) => boolean;
	readonly pick: <T>(items: readonly T[]) => T;
	/** Exponentially distributed delay with the given mean, for Poisson arrivals. */
	readonly exponential: (mean: number) => number;
	readonly hex: (length: number) => string;
	readonly alphanumeric: (length: number) => string;
	/** A child generator with its own stream, so one consumer does not shift another's sequence. */
	readonly fork: (label: string) => Random;
};

const alphabet = 'abcdefghijklmnopqrstuvwxyz0123456789';
const hexDigits = '0123456789abcdef';

function hashString(text: string): number {
	let hash = 2_166_136_261;
	for (let index = 0; index < text.length; index++) {
		hash ^= text.codePointAt(index)!;
		hash = Math.imul(hash, 16_777_619);
	}

	return hash >>> 0;
}

export function createRandom(seed: number | string): Random {
	let state = typeof seed === 'number' ? seed >>> 0 : hashString(seed);

	const next = (): number => {
		state = (state + 0x6d_2b_79_f5) >>> 0;
		let t = state;
		t = Math.imul(t ^ (t >>> 15), t | 1);
		t ^= t + Math.imul(t ^ (t >>> 7), t | 61);
		return ((t ^ (t >>> 14)) >>> 0) / 4_294_967_296;
	};

	const int = (min: number, max: number) => min + Math.floor(next() * (max - min + 1));
	/** `length` characters of `characters`, one draw each (a job id is 30: a loop, not an array of closures). */
	const draw = (length: number, characters: string) => {
		let text = '';
		for (let index = 0; index < length; index++) {
			text += characters[int(0, characters.length - 1)];
		}

		return text;
	};

	return {
		next,
		int,
		between: (min, max) => min + next() * (max - min),
		chance: probability => next() < probability,
		pick<T>(items: readonly T[]): T {
			return items[Math.floor(next() * items.length)]!;
		},
		exponential: mean => -Math.log(1 - next()) * mean,
		hex: length => draw(length, hexDigits),
		alphanumeric: length => draw(length, alphabet),
		fork: label => createRandom(hashString(`${state}:${label}`)),
	};
}
