// The write flows over GraphQL, whose pods run at once; REST v2's own (PROVISIONING first, only what changed sent): test/headless/fleet-writes-v2.test.ts.
import {afterEach, expect, test} from 'vitest';
import {App} from '../../source/dashboard/app.js';
import type {Engine} from '../../source/engine/create-engine.js';
import {engineFor} from '../helpers/engine.js';
import {gql} from '../helpers/graphql-client.js';
import {startTestSim, waitFor, type TestSim} from '../helpers/sim-client.js';
import {frameMatching, renderWith, tick} from '../helpers/ui-fixture.js';

let sim: TestSim | undefined;
let engine: Engine | undefined;
afterEach(async () => {
	await engine?.close();
	await sim?.close();
});

const keys = {enter: '\r', escape: '\u001B', ctrlD: '\u0004', ctrlS: '\u0013'};

async function deploy(name: string, spot: boolean): Promise<string> {
	const types = (await gql(sim!, '{ gpuTypes { id lowestPrice(input: {gpuCount: 1, secureCloud: false}) { stockStatus minimumBidPrice } } }')).body.data
		.gpuTypes as Array<{
		id: string;
		lowestPrice: {stockStatus: string | null; minimumBidPrice: number | null};
	}>;
	const plenty = types.find(type => type.lowestPrice.stockStatus === 'High' && type.lowestPrice.minimumBidPrice !== null)!;
	const mutation = spot ? 'podRentInterruptable(input: $input)' : 'podFindAndDeployOnDemand(input: $input)';
	const input = {name, gpuTypeId: plenty.id, gpuCount: 1, imageName: 'x', cloudType: 'COMMUNITY', ...(spot ? {bidPerGpu: 5} : {})};
	const reply = await gql(
		sim!,
		`mutation Deploy($input: ${spot ? 'PodRentInterruptableInput!' : 'PodFindAndDeployOnDemandInput!'}) { pod: ${mutation} { id } }`,
		{
			variables: {input},
		},
	);
	return reply.body.data.pod.id as string;
}

const statusOf = async (podId: string) =>
	((await gql(sim!, `{ pod(input: {podId: "${podId}"}) { desiredStatus } }`)).body.data.pod as {desiredStatus: string} | null)?.desiredStatus;

test('pods: x stops after y, u resumes (a spot pod asks its bid in a form), Ctrl-D terminates after the typed name', async () => {
	sim = await startTestSim({seed: 3, graphqlRate: 1000, podCount: 0});
	const onDemand = await deploy('ui-ondemand', false);
	const spot = await deploy('ui-spot', true);
	engine = await engineFor(sim, {poll: ['pods', 'gpus'], budget: {graphqlPerWindow: 100}, managementApi: 'graphql'});
	engine.start();
	// The spot pod's minimum bid comes from the GPU types, a background poll that the writes below
	// (at the user's priority) would otherwise keep waiting on a loaded machine.
	await waitFor(() => engine!.store.getState().gpus.order.length > 0);
	const {lastFrame, stdin} = renderWith({store: engine.store}, <App readOnly={false} />, {engine});
	stdin.write('2');
	await frameMatching(lastFrame, /ui-ondemand/);
	stdin.write('/ui-ondemand\r');
	await frameMatching(lastFrame, /Pods \(1\//);
	stdin.write('x');
	await frameMatching(lastFrame, /Stop pod ui-ondemand\? Its container disk is wiped; its volume is kept\. y\/N/);
	stdin.write('y');
	await frameMatching(lastFrame, new RegExp(String.raw`done: stop pod ui-ondemand \(${onDemand}\)`));
	expect(await statusOf(onDemand)).toBe('EXITED');
	await frameMatching(lastFrame, /ui-ondemand .*EXITED/);
	stdin.write('u');
	// The resume form: the GPU count as it was, and the $/h it means.
	await frameMatching(lastFrame, /Resume pod ui-ondemand[\s\S]*GPUs +1/);
	stdin.write(keys.ctrlS);
	await frameMatching(lastFrame, /Resume pod ui-ondemand with 1 GPU\(s\) = \$[\d.]+\/h\? y\/N/);
	stdin.write('y');
	await frameMatching(lastFrame, new RegExp(String.raw`done: resume pod ui-ondemand \(${onDemand}\)`));
	expect(await statusOf(onDemand)).toBe('RUNNING');

	// The spot pod: stopped, then resumed through its bid form.
	stdin.write(keys.escape);
	await tick();
	stdin.write('/ui-spot\r');
	await frameMatching(lastFrame, /Pods \(1\/.*ui-spot/s);
	stdin.write('x');
	// The question drawn before the answer: a y typed before it would go to the pane.
	await frameMatching(lastFrame, /Stop pod [\w-]+\? .*y\/N/);
	stdin.write('y');
	await waitFor(async () => (await statusOf(spot)) === 'EXITED', 15_000);
	await frameMatching(lastFrame, /ui-spot .*EXITED/);
	stdin.write('u');
	await frameMatching(lastFrame, /Resume spot pod ui-spot/);
	expect(lastFrame()).toMatch(/bid per GPU \(\$\/h\) +[\d.]+ .*the minimum now is \$[\d.]+/);
	// A bid well above it: the simulated market moves, and the minimum the form offers (from the last GPU poll)
	// may be below the service's by the time it is sent, which the service refuses (as it should).
	stdin.write('\u007F'.repeat(8));
	await tick();
	stdin.write('5');
	await frameMatching(lastFrame, /bid per GPU \(\$\/h\) +5 /);
	stdin.write(keys.ctrlS);
	await frameMatching(lastFrame, /Resume pod ui-spot with 1 GPU\(s\) at a bid of \$5\/GPU = \$5\.00\/h\? y\/N/);
	stdin.write('y');
	await waitFor(async () => (await statusOf(spot)) === 'RUNNING', 15_000);

	// Terminate: the wrong name sends nothing; the right one deletes the pod.
	stdin.write(keys.ctrlD);
	await frameMatching(lastFrame, /Terminate pod ui-spot\? Its volume is lost for good\.[\s\S]*Type "ui-spot" to confirm:/);
	stdin.write('ui\r');
	await frameMatching(lastFrame, /not sent: "ui" does not match "ui-spot"/);
	expect(await statusOf(spot)).toBe('RUNNING');
	stdin.write('ui-spot\r');
	await frameMatching(lastFrame, new RegExp(String.raw`done: terminate pod ui-spot \(${spot}\)`));
	expect(await statusOf(spot)).toBeUndefined();
}, 30_000);

test('endpoints: Ctrl-D on one with workers offers to scale to zero first (a write of its own), then asks for the typed name', async () => {
	sim = await startTestSim({graphqlRate: 1000, endpoints: [{id: 'ep-gone', name: 'doomed', workersMin: 1, workersMax: 2}]});
	engine = await engineFor(sim, {poll: ['endpoints'], budget: {graphqlPerWindow: 100}, managementApi: 'graphql'});
	engine.start();
	const {lastFrame, stdin} = renderWith({store: engine.store}, <App readOnly={false} />, {engine});
	await frameMatching(lastFrame, /doomed/);
	stdin.write(keys.ctrlD);
	await frameMatching(lastFrame, /doomed has workers \(min 1, max 2\); the service deletes only at 0 and 0\. Scale it to zero first\? y\/N/);
	stdin.write('y');
	await frameMatching(lastFrame, /Scaled to zero\. Delete endpoint doomed\? Its jobs and workers go with it\.[\s\S]*Type "doomed" to confirm:/);
	const scaled = (await gql(sim, '{ myself { endpoints { id workersMin workersMax } } }')).body.data.myself.endpoints;
	expect(scaled).toEqual([{id: 'ep-gone', workersMin: 0, workersMax: 0}]);
	stdin.write('doomed\r');
	await frameMatching(lastFrame, /done: delete endpoint doomed \(ep-gone\)/);
	expect((await gql(sim, '{ myself { endpoints { id } } }')).body.data.myself.endpoints).toEqual([]);
}, 30_000);

test('d on a GPU type: the deploy wizard, checked as typed, reviewed with its $/h; the new pod shows selected in the Pods pane', async () => {
	sim = await startTestSim({graphqlRate: 1000, podCount: 0});
	engine = await engineFor(sim, {poll: ['pods', 'gpus'], budget: {graphqlPerWindow: 100}, managementApi: 'graphql'});
	engine.start();
	const {lastFrame, stdin, view} = renderWith({store: engine.store}, <App readOnly={false} />, {engine, view: {columns: 130, rows: 32}});
	stdin.write('3');
	await frameMatching(lastFrame, /GPUs \(20\)/);
	stdin.write('/^L4$\r');
	await frameMatching(lastFrame, /GPUs \(1\/20\)/);
	stdin.write('d');
	await frameMatching(lastFrame, /Deploy a pod on L4/);
	expect(lastFrame()).toMatch(/image +.*is required: the container image/);
	// Tab to the image (cloud, GPUs, pricing, image), type it, and a bad port.
	stdin.write('\t\t\t');
	await tick();
	stdin.write('runpod/pytorch:2.4');
	await tick();
	stdin.write('\t\t\t\t\t');
	await tick();
	stdin.write('88/ftp');
	await frameMatching(lastFrame, /"88\/ftp" is not PORT\/http/);
	stdin.write(keys.ctrlS);
	await frameMatching(lastFrame, /not sent: ports "88\/ftp"/);
	stdin.write('\u007F'.repeat(6));
	await tick();
	stdin.write('8888/http');
	await frameMatching(lastFrame, /\[ Send ] +1× L4 · all cloud · on demand · \$[\d.]+\/h/);
	stdin.write(keys.ctrlS);
	await frameMatching(lastFrame, /Deploy 1× L4 · all cloud · on demand · \$[\d.]+\/h\? It bills from the moment it runs\. y\/N/);
	stdin.write('y');
	await frameMatching(lastFrame, /done: deploy a pod on L4 \(NVIDIA L4\)/);
	const made = (await gql(sim, '{ myself { pods { id imageName ports } } }')).body.data.myself.pods as Array<{id: string; imageName: string; ports: string}>;
	expect(made).toEqual([{id: expect.any(String), imageName: 'runpod/pytorch:2.4', ports: '8888/http'}]);
	expect(view.getState()).toMatchObject({pane: 'pods', selected: {pods: {key: made[0]!.id}}});
	await frameMatching(lastFrame, /Pods \(1\)/);
}, 30_000);

test('e edits an endpoint: the review shows old → new, the whole record goes back; :endpoint new creates one, selected', async () => {
	sim = await startTestSim({graphqlRate: 1000, endpoints: [{id: 'ep-edit', name: 'editable', workersMin: 0, workersMax: 1, idleTimeout: 45}]});
	engine = await engineFor(sim, {poll: ['endpoints'], budget: {graphqlPerWindow: 100}, managementApi: 'graphql'});
	engine.start();
	const {lastFrame, stdin, view} = renderWith({store: engine.store}, <App readOnly={false} />, {engine, view: {columns: 130, rows: 32}});
	await frameMatching(lastFrame, /editable/);
	stdin.write('e');
	await frameMatching(lastFrame, /Edit endpoint editable/);
	expect(lastFrame()).toMatch(/idle timeout \(s\) +45/);
	// To workers max (name, template, GPU pools, workers min, workers max): replace 1 with 4.
	stdin.write('\t\t\t\t');
	await tick();
	stdin.write('\u007F');
	await tick();
	stdin.write('4');
	await frameMatching(lastFrame, /\[ Send ] +workersMax 1 → 4/);
	stdin.write(keys.ctrlS);
	await frameMatching(lastFrame, /Save editable: workersMax 1 → 4\? y\/N/);
	stdin.write('y');
	await frameMatching(lastFrame, /done: update endpoint editable \(ep-edit\)/);
	const saved = (await gql(sim, '{ myself { endpoints { id workersMax idleTimeout } } }')).body.data.myself.endpoints;
	expect(saved).toEqual([{id: 'ep-edit', workersMax: 4, idleTimeout: 45}]);

	stdin.write(':endpoint new\r');
	await frameMatching(lastFrame, /New endpoint/);
	stdin.write('fresh-fb');
	await tick();
	stdin.write('\t');
	await tick();
	stdin.write('tpl-123');
	await tick();
	stdin.write('\t');
	await tick();
	stdin.write('ADA_24');
	await frameMatching(lastFrame, /\[ Send ] +name fresh-fb · templateId tpl-123 · gpuIds ADA_24/);
	stdin.write(keys.ctrlS);
	await frameMatching(lastFrame, /Create the endpoint: name fresh-fb/);
	stdin.write('y');
	await frameMatching(lastFrame, /done: create endpoint fresh-fb/);
	const created = (await gql(sim, '{ myself { endpoints { id name flashBootType } } }')).body.data.myself.endpoints as Array<{
		id: string;
		name: string;
		flashBootType: string;
	}>;
	const fresh = created.find(endpoint => endpoint.name === 'fresh-fb')!;
	// FlashBoot is the form's own choice now (off unless chosen), not a name ending in -fb: REST v2 has no such rule.
	expect(fresh.flashBootType).toBe('OFF');
	expect(view.getState()).toMatchObject({pane: 'endpoints', selected: {endpoints: {key: fresh.id}}});
}, 30_000);
