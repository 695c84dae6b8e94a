import type {SimPod} from '../pods/pod.js';
import type {DeployInput} from '../pods/pod-request.js';
import {checkBody} from './body-check.js';
import {invalid, RestError} from './rest-error.js';

const container = {image: 'string', args: 'string', disk: 'integer', env: 'string-map', ports: 'string[]', registry: 'string'} as const;

type Body = Record<string, unknown>;

const envList = (env: unknown) => Object.entries((env ?? {}) as Record<string, string>).map(([key, value]) => ({key, value}));

/** `POST /v2/pods` as the fleet's deploy input. Exactly one of `gpu` and `cpu` (400); `gpu.count` is required, as the service has it. */
export function deployInputOf(body: Body): DeployInput {
	checkBody(
		body,
		{
			...container,
			name: 'string',
			cloud: 'string',
			cpu: 'object',
			dataCenterIds: 'string[]',
			globalNetworking: 'boolean',
			gpu: 'object',
			mounts: 'object',
			startJupyter: 'boolean',
			startSsh: 'boolean',
			templateId: 'string',
		},
		'$',
		['name'],
	);
	if (body.image === undefined && body.templateId === undefined) {
		throw invalid(["$: missing property 'image' (required unless templateId is set)"]);
	}

	if (body.cloud !== undefined && body.cloud !== 'SECURE' && body.cloud !== 'COMMUNITY') {
		throw invalid([`$.cloud: must be SECURE or COMMUNITY`]);
	}

	if ((body.gpu === undefined) === (body.cpu === undefined)) {
		throw new RestError(400, 'exactly one of gpu or cpu must be set');
	}

	const gpu = body.gpu as Body | undefined;
	const cpu = body.cpu as Body | undefined;
	if (gpu) {
		checkBody(gpu, {id: 'string', count: 'integer', allowedCudaVersions: 'string[]', minCudaVersion: 'string'}, '$.gpu', ['id']);
		if (gpu.count === undefined) {
			throw new RestError(400, 'gpu.count is required');
		}
	}

	if (cpu) {
		checkBody(cpu, {id: 'string', vcpuCount: 'integer'}, '$.cpu', ['id', 'vcpuCount']);
	}

	const mounts = (body.mounts ?? {}) as {persistent?: {size?: number; path?: string}; network?: Array<{volumeId?: string; path?: string}>};
	if (mounts.persistent && mounts.network?.length) {
		throw new RestError(400, 'mounts.persistent and mounts.network are mutually exclusive');
	}

	return {
		name: body.name as string,
		imageName: (body.image as string | undefined) ?? null,
		templateId: (body.templateId as string | undefined) ?? null,
		// A CPU pod runs on a GPU host without its GPUs: the fleet's 0-GPU pod.
		gpuTypeId: (gpu?.id as string | undefined) ?? 'NVIDIA RTX A4000',
		gpuCount: (gpu?.count as number | undefined) ?? 0,
		minVcpuCount: (cpu?.vcpuCount as number | undefined) ?? null,
		cloudType: body.cloud ?? 'SECURE',
		containerDiskInGb: (body.disk as number | undefined) ?? null,
		dockerArgs: (body.args as string | undefined) ?? null,
		ports: ((body.ports as string[] | undefined) ?? []).join(',') || null,
		env: envList(body.env),
		volumeInGb: mounts.persistent?.size ?? null,
		volumeMountPath: mounts.persistent?.path ?? mounts.network?.[0]?.path ?? null,
		networkVolumeId: mounts.network?.[0]?.volumeId ?? null,
		dataCenterId: (body.dataCenterIds as string[] | undefined)?.[0] ?? null,
		allowedCudaVersions: (gpu?.allowedCudaVersions as string[] | undefined) ?? null,
	};
}

/** `PATCH /v2/pods/{id}`: changes only what is sent. A new image, args, env, ports or disk restart the container. */
export function applyPodPatch(pod: SimPod, body: Body, now: number): void {
	checkBody(body, {...container, globalNetworking: 'boolean', locked: 'boolean', mounts: 'object', name: 'string', templateId: 'string'});
	if (body.name === '') {
		throw invalid(['$.name: must not be empty']);
	}

	if (body.name !== undefined) {
		pod.name = body.name as string;
	}

	if (body.locked !== undefined) {
		pod.locked = body.locked as boolean;
	}

	const restarts = ['image', 'args', 'env', 'ports', 'disk'].some(key => body[key] !== undefined);
	pod.imageName = (body.image as string | undefined) ?? pod.imageName;
	pod.dockerArgs = (body.args as string | undefined) ?? pod.dockerArgs;
	pod.containerDiskInGb = (body.disk as number | undefined) ?? pod.containerDiskInGb;
	if (body.env !== undefined) {
		pod.env = envList(body.env).map(({key, value}) => `${key}=${value}`);
	}

	if (body.ports !== undefined) {
		pod.ports = (body.ports as string[]).join(',') || null;
	}

	if (restarts) {
		pod.version++;
		if (pod.desiredStatus === 'RUNNING') {
			pod.startedAt = now;
		}
	}
}
