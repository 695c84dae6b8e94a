import {dataCenters, findGpu, regionCodes, type GpuModel} from '../market/gpu-catalogue.js';
import {ServiceError} from '../service-error.js';

/** `podFindAndDeployOnDemand` / `podRentInterruptable` input, as clients send it. */
export type DeployInput = {
	readonly name?: string | null;
	readonly imageName?: string | null;
	readonly templateId?: string | null;
	readonly gpuTypeId?: string | null;
	readonly gpuCount?: number | null;
	readonly cloudType?: 'ALL' | 'SECURE' | 'COMMUNITY' | null;
	readonly volumeInGb?: number | null;
	readonly containerDiskInGb?: number | null;
	readonly minVcpuCount?: number | null;
	readonly minMemoryInGb?: number | null;
	readonly dockerArgs?: string | null;
	readonly ports?: string | null;
	readonly volumeMountPath?: string | null;
	readonly env?: ReadonlyArray<{readonly key: string; readonly value: string}> | null;
	readonly dataCenterId?: string | null;
	readonly countryCode?: string | null;
	readonly networkVolumeId?: string | null;
	readonly bidPerGpu?: number | null;
	readonly allowedCudaVersions?: ReadonlyArray<string | null> | null;
};

export type ValidDeploy = {
	readonly model: GpuModel;
	readonly gpuCount: number;
	readonly dataCenterId: string | undefined;
};

/** A pod has zero or more GPUs: 0 is a CPU-only pod on the type's host, up to the type's maximum. */
export function checkGpuCount(model: GpuModel, gpuCount: number): void {
	if (!Number.isInteger(gpuCount) || gpuCount < 0 || gpuCount > model.maxGpuCount) {
		throw new ServiceError(`gpuCount must be between 0 and ${model.maxGpuCount} for ${model.id}`);
	}
}

/** Checks what a real operator gets wrong: the GPU type, the count, the image, the place. */
export function validateDeploy(input: DeployInput): ValidDeploy {
	if (!input.gpuTypeId) {
		throw new ServiceError('gpuTypeId is required');
	}

	const model = findGpu(input.gpuTypeId);
	if (!model) {
		throw new ServiceError(`Unknown gpuTypeId "${input.gpuTypeId}"`);
	}

	const gpuCount = input.gpuCount ?? 1;
	checkGpuCount(model, gpuCount);

	if (!input.imageName && !input.templateId) {
		throw new ServiceError('imageName or templateId is required');
	}

	if (input.countryCode && !(regionCodes as readonly string[]).includes(input.countryCode)) {
		throw new ServiceError(`Unknown countryCode "${input.countryCode}"; use one of ${regionCodes.join(', ')}`);
	}

	let dataCenterId = input.dataCenterId ?? undefined;
	if (dataCenterId && !dataCenters.some(center => center.id === dataCenterId)) {
		throw new ServiceError(`Unknown dataCenterId "${dataCenterId}"`);
	}

	if (!dataCenterId && input.countryCode) {
		dataCenterId = dataCenters.find(center => center.countryCode === input.countryCode)!.id;
	}

	for (const [name, value] of [
		['volumeInGb', input.volumeInGb],
		['containerDiskInGb', input.containerDiskInGb],
	] as const) {
		if (value !== undefined && value !== null && (!Number.isInteger(value) || value < 0)) {
			throw new ServiceError(`${name} must be a whole number of GB`);
		}
	}

	return {model, gpuCount, dataCenterId};
}
