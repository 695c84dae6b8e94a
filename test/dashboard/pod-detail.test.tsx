import {afterEach, expect, test} from 'vitest';
import {App} from '../../source/dashboard/app.js';
import type {Engine} from '../../source/engine/create-engine.js';
import {formatDollarsPerHour} from '../../source/format/numbers.js';
import {defaultCadence} from '../../source/poll/cadence.js';
import {engineFor} from '../helpers/engine.js';
import {gql} from '../helpers/graphql-client.js';
import {startTestSim, type TestSim} from '../helpers/sim-client.js';
import {frameMatching, renderWith, tick} from '../helpers/ui-fixture.js';

let sim: TestSim | undefined;
let engine: Engine | undefined;
afterEach(async () => {
	await engine?.close();
	await sim?.close();
});

test('Enter on a pod: its details, env values hidden until v, ports as a table, per-GPU history; x works there too', async () => {
	sim = await startTestSim({graphqlRate: 1000, podCount: 0});
	const types = (await gql(sim, '{ gpuTypes { id lowestPrice(input: {gpuCount: 2}) { stockStatus } } }')).body.data.gpuTypes as Array<{
		id: string;
		lowestPrice: {stockStatus: string | null};
	}>;
	const plenty = types.find(type => type.lowestPrice.stockStatus === 'High')!;
	const deployed = await gql(sim, 'mutation Deploy($input: PodFindAndDeployOnDemandInput!) { podFindAndDeployOnDemand(input: $input) { id costPerHr } }', {
		variables: {
			input: {
				name: 'trainer',
				gpuTypeId: plenty.id,
				gpuCount: 2,
				imageName: 'pytorch/pytorch:2.4',
				containerDiskInGb: 40,
				volumeInGb: 200,
				ports: '8888/http,22/tcp',
				env: [{key: 'HF_TOKEN', value: 'hf_SECRETVALUE'}],
			},
		},
	});
	const running = formatDollarsPerHour(deployed.body.data.podFindAndDeployOnDemand.costPerHr as number);
	// Deployed over GraphQL, the pod runs at once (over REST v2 it is PROVISIONING first).
	engine = await engineFor(sim, {poll: ['pods'], cadence: {...defaultCadence, podsMs: 300}, budget: {graphqlPerWindow: 100}, managementApi: 'graphql'});
	engine.start();
	const {lastFrame, stdin} = renderWith({store: engine.store}, <App readOnly={false} />, {engine, view: {columns: 130, rows: 30}});
	stdin.write('2');
	await frameMatching(lastFrame, /trainer/);
	// The Pods title: what the running pods cost together.
	expect(lastFrame()).toContain(`Pods (1) · 1h  running ${running}`);
	stdin.write('\r');
	let frame = await frameMatching(lastFrame, /trainer \(\w+\) RUNNING {2}Esc back/);
	frame = await frameMatching(lastFrame, /disks +container 40 GB/);
	expect(frame).toMatch(/image +pytorch\/pytorch:2\.4/);
	expect(frame).toMatch(/GPUs +2× .* · 16 vCPU · 62 GB memory/);
	expect(frame).toMatch(/disks +container 40 GB \(wiped on stop\) · volume 200 GB at \/workspace \(kept\)/);
	expect(frame).toContain(`cost      ${running} now (running)`);
	expect(frame).toMatch(/env +HF_TOKEN=•{4} +\(v shows the values\)/);
	expect(frame).not.toContain('hf_SECRETVALUE');
	expect(frame).toMatch(/^ports +PORT +TYPE +PUBLIC +IP$/m);
	expect(frame).toMatch(/^ {10}8888 → 8888 +http +no +[\d.]+$/m);
	expect(frame).toMatch(/^ {10}22 → \d+ +tcp +yes +[\d.]+$/m);
	// Two GPUs, each with its history growing as the details are polled.
	frame = await frameMatching(lastFrame, /GPU 1 +util +\d+% +\S{2,}/);
	expect(frame).toMatch(/GPU 0 +util +\d+%/);
	stdin.write('v');
	await frameMatching(lastFrame, /env +HF_TOKEN=hf_SECRETVALUE/);
	stdin.write('v');
	await frameMatching(lastFrame, /env +HF_TOKEN=•{4}/);
	stdin.write('x');
	await frameMatching(lastFrame, /Stop pod trainer\? .* y\/N/);
	stdin.write('y');
	frame = await frameMatching(lastFrame, /trainer \(\w+\) EXITED/);
	await frameMatching(lastFrame, /ports +none while the pod is not running/);
	// Stopped, it pays for its volume only (200 GB at $0.20/GB/month, 730 h): the running price stays, labelled.
	frame = await frameMatching(lastFrame, /cost +~\$0\.055\/h now/);
	expect(frame).toContain(`cost      ~$0.055/h now (stopped: volume 200 GB at $0.20/GB/month, estimated) · ${running} running`);
	stdin.write('\u001B');
	await tick();
	frame = await frameMatching(lastFrame, /Pods \(1\)/);
	const row = frame.split('\n').find(line => line.includes('trainer'))!;
	expect(row).toMatch(/EXITED.* ~\$0\.055\/h\s*$/);
	expect(row).not.toContain(running);
	expect(frame).toContain('Pods (1) · 1h  running $0.00/h · stopped ~$0.055/h');
}, 30_000);
