import {afterEach, expect, test} from 'vitest';
import type {Engine} from '../../source/engine/create-engine.js';
import {defaultCadence} from '../../source/poll/cadence.js';
// GraphQL's partial reads (summaries of a hidden pane); REST v2 reads every pod in one list, so these run over GraphQL.
import {engineFor} from '../helpers/engine.js';
import {gqlData} from '../helpers/graphql-client.js';
import {startTestSim, waitFor, type TestSim} from '../helpers/sim-client.js';

let sim: TestSim | undefined;
let engine: Engine | undefined;
afterEach(async () => {
	await engine?.close();
	await sim?.close();
});

/**
Pods never polled on their own in a test's time, shown or hidden (the test asks with `refresh`): a full
list that comes after the pane is shown was asked for by the showing, with no clock to read.
(How soon it comes is a figure of `npm run bench`: scripts/bench/pods-shown.js.)
*/
const cadence = {...defaultCadence, podsMs: 600_000, podsHiddenMs: 600_000, healthStalestMs: 600_000};

async function deploy(live: TestSim, name: string): Promise<string> {
	const {gpuTypes} = await gqlData(live, '{ gpuTypes { id securePrice lowestPrice(input: {gpuCount: 1}) { maxUnreservedGpuCount } } }');
	const type = (gpuTypes as Array<{id: string; securePrice: number | null; lowestPrice: {maxUnreservedGpuCount: number}}>).find(
		each => each.securePrice !== null && each.lowestPrice.maxUnreservedGpuCount >= 1,
	)!;
	const {podFindAndDeployOnDemand: pod} = await gqlData(
		live,
		`mutation { podFindAndDeployOnDemand(input: {gpuTypeId: "${type.id}", gpuCount: 1, cloudType: SECURE, name: "${name}", imageName: "example/new:1"}) { id } }`,
	);
	return pod.id as string;
}

test('the Pods pane hidden gets summaries laid over full records; shown, the full list comes at once, over real HTTP', async () => {
	sim = await startTestSim({graphqlRate: 1000});
	engine = await engineFor(sim, {poll: ['pods'], cadence, managementApi: 'graphql'});
	engine.focus('endpoints');
	engine.start();
	const pods = () => engine!.store.getState().pods;
	await waitFor(() => pods().order.length > 0);
	// The first list is full even with the pane hidden: the pane never opens on rows of summaries.
	const first = pods().order.map(id => pods().byId[id]!.record);
	expect(first.every(record => typeof record.imageName === 'string' && record.machine?.gpuDisplayName)).toBe(true);

	const running = first.find(record => record.desiredStatus === 'RUNNING' && record.runtime?.container)!;
	await gqlData(sim, `mutation { podStop(input: {podId: "${running.id}"}) { id } }`);
	const added = await deploy(sim, 'summary-only');
	engine.refresh();
	await waitFor(() => pods().byId[added] !== undefined && pods().byId[running.id]!.record.desiredStatus === 'EXITED');

	// A summary changes what it carries (status, runtime) and keeps the rest of the last full record.
	const stopped = pods().byId[running.id]!.record;
	expect(stopped).toMatchObject({imageName: running.imageName, machine: running.machine, desiredStatus: 'EXITED', runtime: null});
	// A pod first seen hidden is its summary alone: status, cost and type, no image or machine yet.
	const fresh = pods().byId[added]!.record;
	expect(fresh).toMatchObject({name: 'summary-only', desiredStatus: 'RUNNING', gpuCount: 1});
	expect(fresh.costPerHr).toBeGreaterThan(0);
	expect(fresh.podType).toBeTruthy();
	expect(fresh.imageName).toBeUndefined();
	expect(fresh.machine).toBeUndefined();
	// Records the summary did not change are the same objects: nothing redrawn for them.
	const untouched = first.find(record => record.desiredStatus === 'EXITED' && record.id !== running.id);
	expect(untouched).toBeDefined();
	expect(pods().byId[untouched!.id]!.record).toBe(untouched);

	// Shown: the full list is asked for at once, not at the end of a timer (both are ten minutes here).
	engine.focus('pods');
	await waitFor(() => pods().byId[added]!.record.imageName === 'example/new:1');
	expect(pods().byId[added]!.record.machine?.gpuDisplayName).toBeTruthy();
}, 30_000);
