/** A small deterministic random source in [0, 1), so a failing random case can be run again. */
export function seededRandom(seed: number): () => number {
	let state = seed;
	return () => {
		state = (state * 1_103_515_245 + 12_345) % 2_147_483_648;
		return state / 2_147_483_648;
	};
}
