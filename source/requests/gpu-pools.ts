/**
The serverless GPU pools an endpoint's `gpuIds` may name, as the service knows them: an endpoint
form or `endpoint create` naming another is told so at the field, before anything is sent.
*/
export const gpuPools: readonly string[] = ['AMPERE_16', 'AMPERE_24', 'ADA_24', 'AMPERE_48', 'ADA_48_PRO', 'AMPERE_80', 'ADA_80_PRO'];

/** What is wrong with a list of pools: the ones not known, with the known ones; undefined when each is known. */
export function unknownPoolsProblem(pools: readonly string[]): string | undefined {
	const unknown = pools.filter(pool => !gpuPools.includes(pool));
	if (unknown.length === 0) {
		return undefined;
	}

	const named = unknown.map(pool => JSON.stringify(pool)).join(', ');
	return `${named} ${unknown.length === 1 ? 'is not a GPU pool' : 'are not GPU pools'}; the pools are ${gpuPools.join(', ')}`;
}
