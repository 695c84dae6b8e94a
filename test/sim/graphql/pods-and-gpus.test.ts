import {afterEach, describe, expect, test} from 'vitest';
import {startTestSim, waitFor, type TestSim} from '../../helpers/sim-client.js';
import {gql, gqlData} from '../../helpers/graphql-client.js';

let sims: TestSim[] = [];
afterEach(async () => {
	await Promise.all(sims.map(async sim => sim.close()));
	sims = [];
});

async function sim(options: Parameters<typeof startTestSim>[0] = {}): Promise<TestSim> {
	const started = await startTestSim({graphqlRate: 1000, ...options});
	sims.push(started);
	return started;
}

const podFields =
	'id name imageName env machineId machine { podHostId gpuDisplayName location } desiredStatus lastStatusChange costPerHr gpuCount vcpuCount memoryInGb containerDiskInGb volumeInGb volumeMountPath dockerArgs podType port ports uptimeSeconds runtime { uptimeInSeconds ports { ip isIpPublic privatePort publicPort type } gpus { id gpuUtilPercent memoryUtilPercent } container { cpuPercent memoryPercent } }';
const stockQuery =
	'{ gpuTypes { id maxGpuCount securePrice communityPrice lowestPrice(input: {gpuCount: 1}) { stockStatus maxUnreservedGpuCount availableGpuCounts minimumBidPrice uninterruptablePrice } } }';

type Stock = {
	id: string;
	maxGpuCount: number;
	communityPrice: number | null;
	securePrice: number | null;
	lowestPrice: {stockStatus: string | null; maxUnreservedGpuCount: number; minimumBidPrice: number | null; uninterruptablePrice: number | null};
};

async function stock(live: TestSim): Promise<Stock[]> {
	return (await gqlData(live, stockQuery)).gpuTypes;
}

function deployMutation(input: string, kind = 'podFindAndDeployOnDemand'): string {
	return `mutation { ${kind}(input: { ${input} }) { ${podFields} } }`;
}

describe('GPU types', () => {
	test('a catalogue of 15 to 20 types from 16 GB to 192 GB, with prices and stock', async () => {
		const live = await sim();
		const {gpuTypes} = await gqlData(
			live,
			'{ gpuTypes { id displayName manufacturer memoryInGb cudaCores maxGpuCount secureCloud communityCloud securePrice communityPrice secureSpotPrice communitySpotPrice oneWeekPrice oneMonthPrice threeMonthPrice sixMonthPrice lowestPrice(input: {gpuCount: 1}) { gpuName gpuTypeId minimumBidPrice uninterruptablePrice stockStatus maxUnreservedGpuCount availableGpuCounts } } }',
		);
		expect(gpuTypes.length).toBeGreaterThanOrEqual(15);
		expect(gpuTypes.length).toBeLessThanOrEqual(20);
		const memory = gpuTypes.map((type: {memoryInGb: number}) => type.memoryInGb);
		expect(Math.min(...memory)).toBeLessThanOrEqual(24);
		expect(Math.max(...memory)).toBeGreaterThanOrEqual(80);
		for (const type of gpuTypes) {
			expect([null, 'High', 'Medium', 'Low', 'None']).toContain(type.lowestPrice.stockStatus);
			expect(type.lowestPrice.availableGpuCounts).toHaveLength(type.lowestPrice.maxUnreservedGpuCount);
			expect(type.lowestPrice.gpuTypeId).toBe(type.id);
			if (type.securePrice !== null) {
				expect(type.oneMonthPrice).toBeLessThan(type.securePrice);
			}
		}

		const communityless = gpuTypes.find((type: {communityCloud: boolean}) => !type.communityCloud);
		expect(communityless.communityPrice).toBeNull();
	});

	test('gpuTypes with input {id} is still a list; an unknown id is an empty list', async () => {
		const live = await sim();
		expect((await gqlData(live, '{ gpuTypes(input: {id: "NVIDIA L4"}) { id memoryInGb } }')).gpuTypes).toEqual([{id: 'NVIDIA L4', memoryInGb: 24}]);
		expect((await gqlData(live, '{ gpuTypes(input: {id: "NVIDIA Voodoo"}) { id } }')).gpuTypes).toEqual([]);
	});

	test('lowestPrice for a cloud that does not offer the type is null', async () => {
		const live = await sim();
		const {gpuTypes} = await gqlData(
			live,
			'{ gpuTypes(input: {id: "NVIDIA B200"}) { lowestPrice(input: {gpuCount: 1, secureCloud: false}) { stockStatus uninterruptablePrice minimumBidPrice } } }',
		);
		expect(gpuTypes[0].lowestPrice).toEqual({stockStatus: null, uninterruptablePrice: null, minimumBidPrice: null});
	});

	test('stock and spot prices drift as simulated time passes', async () => {
		const live = await sim({speed: 60});
		const before = await stock(live);
		await new Promise(resolve => setTimeout(resolve, 2500));
		const after = await stock(live);
		const changed = before.filter(
			(type, index) =>
				type.lowestPrice.maxUnreservedGpuCount !== after[index]!.lowestPrice.maxUnreservedGpuCount ||
				type.lowestPrice.minimumBidPrice !== after[index]!.lowestPrice.minimumBidPrice,
		);
		expect(changed.length).toBeGreaterThan(5);
	});
});

describe('pods', () => {
	test('the demo pods: running ones have runtime, stopped ones have none; env reads back as KEY=value', async () => {
		const live = await sim();
		const {myself} = await gqlData(live, `{ myself { pods { ${podFields} } } }`);
		const running = myself.pods.filter((pod: {desiredStatus: string}) => pod.desiredStatus === 'RUNNING');
		const stopped = myself.pods.filter((pod: {desiredStatus: string}) => pod.desiredStatus === 'EXITED');
		expect(running.length).toBeGreaterThan(5);
		expect(stopped.length).toBeGreaterThan(0);
		for (const pod of running) {
			expect(pod.runtime.gpus).toHaveLength(pod.gpuCount);
			expect(pod.runtime.uptimeInSeconds).toBeGreaterThan(0);
			for (const gpu of pod.runtime.gpus) {
				expect(gpu.gpuUtilPercent).toBeGreaterThanOrEqual(0);
				expect(gpu.gpuUtilPercent).toBeLessThanOrEqual(100);
			}
		}

		for (const pod of stopped) {
			expect(pod.runtime).toBeNull();
			expect(pod.uptimeSeconds).toBe(0);
		}

		expect(myself.pods[0].env.every((entry: string) => /^[A-Z_]+=/.test(entry))).toBe(true);
		const training = running.find((pod: {name: string}) => pod.name === 'llama-3-70b-finetune');
		expect(Math.min(...training.runtime.gpus.map((gpu: {gpuUtilPercent: number}) => gpu.gpuUtilPercent))).toBeGreaterThanOrEqual(90);
		const idle = running.find((pod: {name: string}) => pod.name === 'idle-dev-box');
		expect(idle.runtime.gpus[0].gpuUtilPercent).toBe(0);
	});

	test("utilisation follows the pods' patterns over time: an inference pod bursts", async () => {
		// Speed 100: 2.5 real seconds cover 250 simulated seconds, ten of the burst curve's 25-second knots.
		const live = await sim({speed: 100});
		const {myself} = await gqlData(live, '{ myself { pods { id name } } }');
		const inference = myself.pods.find((pod: {name: string}) => pod.name === 'vllm-llama-3-8b').id;
		const samples: number[] = [];
		for (let index = 0; index < 25; index++) {
			const {pod} = await gqlData(live, `{ pod(input: {podId: "${inference}"}) { runtime { gpus { gpuUtilPercent } } } }`);
			samples.push(pod.runtime.gpus[0].gpuUtilPercent);
			await new Promise(resolve => setTimeout(resolve, 100));
		}

		expect(Math.max(...samples) - Math.min(...samples)).toBeGreaterThan(30);
	});

	test('deploy on demand (inline literals, cloudType enum without quotes), stop, resume, terminate', async () => {
		const live = await sim();
		const available = (await stock(live)).find(type => type.lowestPrice.maxUnreservedGpuCount >= 2 && type.securePrice !== null)!;
		const deployed = await gqlData(
			live,
			deployMutation(
				`cloudType: SECURE, gpuCount: 2, volumeInGb: 40, containerDiskInGb: 40, minVcpuCount: 2, minMemoryInGb: 15, gpuTypeId: "${available.id}", name: "Runpod Tensorflow", imageName: "runpod/tensorflow", dockerArgs: "", ports: "8888/http,22/tcp", volumeMountPath: "/workspace", env: [{ key: "JUPYTER_PASSWORD", value: "secret" }], startSsh: true, supportPublicIp: true, dataCenterId: null, minDownload: 10, minUpload: 10`,
			),
		);
		const pod = deployed.podFindAndDeployOnDemand;
		expect(pod).toMatchObject({
			name: 'Runpod Tensorflow',
			desiredStatus: 'RUNNING',
			gpuCount: 2,
			env: ['JUPYTER_PASSWORD=secret'],
			ports: '8888/http,22/tcp',
			costPerHr: Math.round(available.securePrice! * 2 * 1000) / 1000,
			podType: 'RESERVED',
		});
		expect(pod.runtime.ports).toEqual([
			expect.objectContaining({privatePort: 8888, type: 'http', isIpPublic: false}),
			expect.objectContaining({privatePort: 22, type: 'tcp', isIpPublic: true}),
		]);

		const stopped = (await gqlData(live, `mutation { podStop(input: {podId: "${pod.id}"}) { id desiredStatus runtime { uptimeInSeconds } } }`)).podStop;
		expect(stopped).toEqual({id: pod.id, desiredStatus: 'EXITED', runtime: null});
		const again = await gql(live, `mutation { podStop(input: {podId: "${pod.id}"}) { id } }`);
		expect(again.body.errors[0].message).toMatch(/not running/);

		const resumed = (
			await gqlData(live, 'mutation Resume($input: PodResumeInput!) { podResume(input: $input) { id desiredStatus gpuCount runtime { gpus { id } } } }', {
				input: {podId: pod.id, gpuCount: 1},
			})
		).podResume;
		expect(resumed).toMatchObject({desiredStatus: 'RUNNING', gpuCount: 1, runtime: {gpus: [expect.any(Object)]}});
		expect((await gql(live, `mutation { podResume(input: {podId: "${pod.id}"}) { id } }`)).body.errors[0].message).toMatch(/already running/);

		expect((await gqlData(live, `mutation { podTerminate(input: {podId: "${pod.id}"}) }`)).podTerminate).toBeNull();
		expect((await gqlData(live, `{ pod(input: {podId: "${pod.id}"}) { id } }`)).pod).toBeNull();
	});

	test.each([
		['an unknown gpuTypeId', 'gpuTypeId: "NVIDIA Voodoo 5", imageName: "x"', /Unknown gpuTypeId/],
		['no image or template', 'gpuTypeId: "NVIDIA L4"', /imageName or templateId is required/],
		['too many GPUs', 'gpuTypeId: "NVIDIA L4", gpuCount: 64, imageName: "x"', /gpuCount must be between 0 and 8/],
		['an unknown data center', 'gpuTypeId: "NVIDIA L4", imageName: "x", dataCenterId: "MOON-1"', /Unknown dataCenterId/],
		['an unknown country', 'gpuTypeId: "NVIDIA L4", imageName: "x", countryCode: "ZZ"', /Unknown countryCode/],
	])('deploy rejects %s', async (_, input, message) => {
		const live = await sim();
		const reply = await gql(live, deployMutation(input));
		expect(reply.status).toBe(200);
		expect(reply.body.data).toEqual({podFindAndDeployOnDemand: null});
		expect(reply.body.errors[0].message).toMatch(message);
	});

	test("deploying with no stock gets the service's own message; so does resuming without free GPUs", async () => {
		const live = await sim();
		const types = await stock(live);
		const scarce = types.find(type => type.lowestPrice.maxUnreservedGpuCount >= 1 && type.communityPrice !== null)!;
		const deployed = (await gqlData(live, deployMutation(`gpuTypeId: "${scarce.id}", gpuCount: 1, cloudType: COMMUNITY, imageName: "x"`)))
			.podFindAndDeployOnDemand;
		await gqlData(live, `mutation { podStop(input: {podId: "${deployed.id}"}) { id } }`);

		// Take every free GPU of that type, then ask for one more.
		let reply;
		for (let attempt = 0; attempt < 200; attempt++) {
			reply = await gql(live, deployMutation(`gpuTypeId: "${scarce.id}", gpuCount: 1, cloudType: COMMUNITY, imageName: "x"`));
			if (reply.body.errors) {
				break;
			}
		}

		expect(reply?.body.errors[0].message).toBe('There are no longer any instances available with the requested specifications. Please refresh and try again.');
		const resume = await gql(live, `mutation { podResume(input: {podId: "${deployed.id}"}) { id } }`);
		expect(resume.body.errors[0].message).toBe('There are not enough free GPUs on the host machine to start this pod.');
	});

	test('spot pods: a bid under minimumBidPrice is refused; a spot pod is interrupted when the price rises past its bid', async () => {
		const live = await sim({speed: 100});
		const types = await stock(live);
		const target = types.find(type => type.lowestPrice.maxUnreservedGpuCount >= 1 && type.communityPrice !== null)!;
		const {
			gpuTypes: [current],
		} = await gqlData(live, `{ gpuTypes(input: {id: "${target.id}"}) { lowestPrice(input: {gpuCount: 1, secureCloud: false}) { minimumBidPrice } } }`);
		const low = await gql(live, deployMutation(`bidPerGpu: 0.001, gpuTypeId: "${target.id}", cloudType: COMMUNITY, imageName: "x"`, 'podRentInterruptable'));
		expect(low.body.errors[0].message).toMatch(/below the minimum bid price/);

		const bid = Math.round(current.lowestPrice.minimumBidPrice * 1.02 * 1000) / 1000;
		const spot = (
			await gqlData(live, deployMutation(`bidPerGpu: ${bid}, gpuTypeId: "${target.id}", cloudType: COMMUNITY, imageName: "x"`, 'podRentInterruptable'))
		).podRentInterruptable;
		expect(spot).toMatchObject({desiredStatus: 'RUNNING', podType: 'INTERRUPTABLE'});
		const interrupted = await waitFor(
			async () => {
				const {pod} = await gqlData(live, `{ pod(input: {podId: "${spot.id}"}) { desiredStatus lastStatusChange runtime { uptimeInSeconds } } }`);
				return pod.desiredStatus === 'EXITED' ? pod : undefined;
			},
			20_000,
			100,
		);
		expect(interrupted.runtime).toBeNull();
		expect(interrupted.lastStatusChange).toMatch(/Interrupted/);

		expect((await gql(live, `mutation { podResume(input: {podId: "${spot.id}"}) { id } }`)).body.errors[0].message).toMatch(/podBidResume/);
		expect((await gql(live, `mutation { podBidResume(input: {podId: "${spot.id}", bidPerGpu: 0.0001}) { id } }`)).body.errors[0].message).toMatch(
			/below the minimum bid price/,
		);
		const resumed = await gql(live, `mutation { podBidResume(input: {podId: "${spot.id}", bidPerGpu: 100, gpuCount: 1}) { desiredStatus costPerHr } }`);
		if (resumed.body.errors) {
			expect(resumed.body.errors[0].message).toBe('There are not enough free GPUs on the host machine to start this pod.');
		} else {
			expect(resumed.body.data.podBidResume).toEqual({desiredStatus: 'RUNNING', costPerHr: 100});
		}
	}, 30_000);

	test('scales to 500 endpoints and 2,000 pods', async () => {
		const large = await sim({endpointCount: 500, podCount: 2000});
		const {myself} = await gqlData(
			large,
			'{ myself { endpoints { id workersMax } pods { id desiredStatus runtime { gpus { gpuUtilPercent } container { cpuPercent } } } } }',
		);
		expect(myself.endpoints).toHaveLength(500);
		expect(myself.pods).toHaveLength(2000);
		expect(new Set(myself.pods.map((pod: {id: string}) => pod.id)).size).toBe(2000);
	});
});
