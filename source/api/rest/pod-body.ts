import type {PodDeployInput} from '../../model/pod.js';
import {ApiError} from '../errors.js';
import type {components} from './v2-schema.js';

type CreateBody = components['schemas']['CreatePodRequest'];

/**
`POST /v2/pods` for an on-demand GPU pod. v2 has no spot pods (no bid, no interruptible), no CPU pod
without a CPU flavour, and nothing for `minVcpuCount`, `minMemoryInGb`, `countryCode` or
`supportPublicIp` (the service picks the machine): those are refused or left out, never guessed.
Cloud `ALL` has no v2 word either: it is left out, and v2 places the pod in secure cloud.
*/
export function createPodBody(input: PodDeployInput, label: string): CreateBody {
	if (input.bidPerGpu !== undefined) {
		throw new ApiError('invalid', `${label}: REST API v2 has no spot (interruptible) pods; deploy on demand`);
	}

	if (input.gpuCount === 0) {
		throw new ApiError('invalid', `${label}: a CPU pod over REST API v2 needs a CPU flavour, which podtop does not send yet; deploy with one GPU or more`);
	}

	const ports = (input.ports ?? '')
		.split(',')
		.map(port => port.trim())
		.filter(Boolean);
	return {
		name: input.name || 'podtop',
		...(input.imageName ? {image: input.imageName} : {}),
		...(input.templateId ? {templateId: input.templateId} : {}),
		gpu: {id: input.gpuTypeId, count: input.gpuCount ?? 1},
		...(input.cloudType === 'SECURE' || input.cloudType === 'COMMUNITY' ? {cloud: input.cloudType} : {}),
		...(input.dataCenterId ? {dataCenterIds: [input.dataCenterId]} : {}),
		...(input.containerDiskInGb === undefined ? {} : {disk: input.containerDiskInGb}),
		...(input.volumeInGb ? {mounts: {persistent: {size: input.volumeInGb, path: input.volumeMountPath ?? '/workspace'}}} : {}),
		...(ports.length > 0 ? {ports} : {}),
		...(input.env && input.env.length > 0 ? {env: Object.fromEntries(input.env.map(({key, value}) => [key, value]))} : {}),
		...(input.startSsh === undefined ? {} : {startSsh: input.startSsh}),
	};
}
