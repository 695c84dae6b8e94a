import {afterEach, describe, expect, test} from 'vitest';
import {App} from '../../source/dashboard/app.js';
import type {Engine} from '../../source/engine/create-engine.js';
import {engineFor} from '../helpers/engine.js';
import {startTestSim, type TestSim} from '../helpers/sim-client.js';
import {frameMatching, renderWith, tick} from '../helpers/ui-fixture.js';

let sim: TestSim | undefined;
let engine: Engine | undefined;
afterEach(async () => {
	await engine?.close();
	await sim?.close();
	engine = undefined;
	sim = undefined;
});

describe('a profile marked read-only, in the dashboard', () => {
	test('a write typed in the palette is refused naming the profile and --write, and nothing is sent', async () => {
		sim = await startTestSim({endpoints: [{id: 'ep-echo', name: 'echo', workersMin: 0, workersMax: 1}]});
		engine = await engineFor(sim, {
			// Nothing polled: any GraphQL request after the first frame would be the write.
			poll: [],
			readOnly: true,
			readOnlyReason: 'profile "prod" is read-only; add --write to write',
			budget: {graphqlPerWindow: 50},
		});
		engine.start();
		const {lastFrame, stdin} = renderWith({store: engine.store}, <App readOnly />, {engine});
		await frameMatching(lastFrame, /Endpoints/);
		const graphql = async () => ((await sim!.call('GET', '/__sim/stats')).body.endpoints.graphql?.request?.requests as number | undefined) ?? 0;
		const before = await graphql();
		stdin.write(':');
		for (const character of 'scale 0 3') {
			stdin.write(character);
		}

		await frameMatching(lastFrame, /:scale 0 3/);
		stdin.write('\r');
		await frameMatching(lastFrame, /read-only mode \(profile "prod" is read-only; add --write to write\): scale the endpoint/);
		await tick(100);
		expect(await graphql()).toBe(before);
	});
});
