import {afterEach, expect, test} from 'vitest';
import {closeRestSims, startRestSim} from './rest-client.js';

afterEach(closeRestSims);

test('resources the simulator does not model answer empty wrapped lists and 404 for any id', async () => {
	const sim = await startRestSim();
	for (const [path, key] of [
		['/v2/clusters', 'clusters'],
		['/v2/templates', 'templates'],
		['/v2/network-volumes', 'networkVolumes'],
		['/v2/registries', 'registries'],
		['/v2/registries/delegations', 'delegations'],
	] as const) {
		expect((await sim.rest('GET', path)).body).toEqual({[key]: []});
		expect((await sim.rest('GET', `${path === '/v2/registries/delegations' ? '/v2/registries' : path}/nope`)).status).toBe(404);
		expect((await sim.rest('DELETE', `${path}/nope`)).status).toBe(404);
	}

	expect((await sim.rest('GET', '/v2/clusters/nope/pods')).status).toBe(404);
	expect((await sim.rest('PATCH', '/v2/templates/nope', {body: {name: 'x'}})).status).toBe(404);
});
