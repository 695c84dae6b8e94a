/** A GPU type as the simulated market offers it. Prices are $/GPU/hr. */
export type GpuModel = {
	readonly id: string;
	readonly displayName: string;
	readonly manufacturer: 'Nvidia' | 'AMD';
	readonly memoryInGb: number;
	readonly cudaCores: number;
	/** On-demand price in secure cloud; undefined where secure cloud does not offer it. */
	readonly securePrice: number | undefined;
	/** On-demand price in community cloud; undefined where community cloud does not offer it. */
	readonly communityPrice: number | undefined;
	readonly maxGpuCount: number;
	/** GPUs of this type in the simulated market at full supply. */
	readonly supply: number;
	/** The serverless pool this type belongs to, if any. */
	readonly pool: string | undefined;
};

const gpu = (
	id: string,
	displayName: string,
	memoryInGb: number,
	cudaCores: number,
	securePrice: number | undefined,
	communityPrice: number | undefined,
	supply: number,
	pool?: string,
	maxGpuCount = 8,
	manufacturer: GpuModel['manufacturer'] = 'Nvidia',
): GpuModel => ({id, displayName, manufacturer, memoryInGb, cudaCores, securePrice, communityPrice, maxGpuCount, supply, pool});

/** 20 types, 16 GB workstation cards to 192 GB data-center parts, at list prices of the kind the service shows. */
export const gpuCatalogue: readonly GpuModel[] = [
	gpu('NVIDIA RTX A4000', 'RTX A4000', 16, 6144, 0.32, 0.17, 160, 'AMPERE_16', 10),
	gpu('NVIDIA RTX A4500', 'RTX A4500', 20, 7168, 0.34, 0.19, 90, 'AMPERE_16'),
	gpu('NVIDIA RTX 4000 Ada Generation', 'RTX 4000 Ada', 20, 6144, 0.38, 0.2, 120, 'ADA_24'),
	gpu('NVIDIA RTX A5000', 'RTX A5000', 24, 8192, 0.36, 0.22, 140, 'AMPERE_24'),
	gpu('NVIDIA GeForce RTX 3090', 'RTX 3090', 24, 10_496, 0.43, 0.22, 220, 'AMPERE_24'),
	gpu('NVIDIA GeForce RTX 4090', 'RTX 4090', 24, 16_384, 0.69, 0.34, 260, 'ADA_24'),
	gpu('NVIDIA L4', 'L4', 24, 7424, 0.43, 0.28, 80, 'ADA_24'),
	gpu('NVIDIA RTX A6000', 'RTX A6000', 48, 10_752, 0.76, 0.49, 150, 'AMPERE_48'),
	gpu('NVIDIA A40', 'A40', 48, 10_752, 0.4, 0.35, 110, 'AMPERE_48'),
	gpu('NVIDIA RTX 6000 Ada Generation', 'RTX 6000 Ada', 48, 18_176, 0.88, 0.74, 100, 'ADA_48_PRO'),
	gpu('NVIDIA L40', 'L40', 48, 18_176, 0.99, 0.69, 60, 'ADA_48_PRO'),
	gpu('NVIDIA L40S', 'L40S', 48, 18_176, 0.86, 0.79, 130, 'ADA_48_PRO'),
	gpu('NVIDIA A100 80GB PCIe', 'A100 PCIe', 80, 6912, 1.64, 1.19, 90, 'AMPERE_80'),
	gpu('NVIDIA A100-SXM4-80GB', 'A100 SXM', 80, 6912, 1.89, 1.39, 120, 'AMPERE_80'),
	gpu('NVIDIA H100 PCIe', 'H100 PCIe', 80, 14_592, 2.39, 1.99, 70, 'ADA_80_PRO'),
	gpu('NVIDIA H100 80GB HBM3', 'H100 SXM', 80, 16_896, 2.99, 2.69, 160, 'ADA_80_PRO'),
	gpu('NVIDIA H100 NVL', 'H100 NVL', 94, 16_896, 2.79, 2.59, 40, undefined),
	gpu('NVIDIA H200', 'H200 SXM', 141, 16_896, 3.99, 3.59, 48, undefined),
	gpu('NVIDIA B200', 'B200', 180, 18_432, 5.99, undefined, 24, undefined),
	gpu('AMD Instinct MI300X OAM', 'MI300X', 192, 0, 2.49, undefined, 32, undefined, 8, 'AMD'),
];

/** Serverless GPU pools an endpoint's `gpuIds` may name. */
export const gpuPools = ['AMPERE_16', 'AMPERE_24', 'ADA_24', 'AMPERE_48', 'ADA_48_PRO', 'AMPERE_80', 'ADA_80_PRO'] as const;

/** Region codes an endpoint's `locations` may name. */
export const regionCodes = ['CZ', 'FR', 'GB', 'NO', 'RO', 'US'] as const;

/** Data centers pods can be placed in, by region. */
export const dataCenters: ReadonlyArray<{readonly id: string; readonly countryCode: (typeof regionCodes)[number]; readonly location: string}> = [
	{id: 'US-TX-3', countryCode: 'US', location: 'US'},
	{id: 'US-GA-1', countryCode: 'US', location: 'US'},
	{id: 'US-CA-2', countryCode: 'US', location: 'US'},
	{id: 'EU-RO-1', countryCode: 'RO', location: 'RO'},
	{id: 'EU-CZ-1', countryCode: 'CZ', location: 'CZ'},
	{id: 'EU-FR-1', countryCode: 'FR', location: 'FR'},
	{id: 'EUR-NO-1', countryCode: 'NO', location: 'NO'},
	{id: 'EU-GB-1', countryCode: 'GB', location: 'GB'},
];

export function findGpu(id: string): GpuModel | undefined {
	return gpuCatalogue.find(model => model.id === id);
}

/** Standards secure-cloud data centers are certified for; community hosts have none. */
export const secureCompliance = ['GDPR', 'ISO_IEC_27001', 'SOC_2_TYPE_2'] as const;

/** The oldest CUDA a GPU type runs: Blackwell needs 12.8, Hopper and Ada 11.8, the rest 11.0. */
export function minimumCuda(model: GpuModel): string {
	if (model.manufacturer !== 'Nvidia') {
		return '0';
	}

	return /B200|RTX 50/.test(model.displayName) ? '12.8' : /H100|H200|Ada|L4|L40|RTX 4090/.test(model.displayName) ? '11.8' : '11.0';
}

const versionNumber = (version: string) => {
	const [major = 0, minor = 0] = version.split('.').map(Number);
	return major * 100 + minor;
};

/** Whether any of `allowed` (CUDA versions like "12.4") runs on the GPU type; no list allows all. */
export function cudaAllows(model: GpuModel, allowed: ReadonlyArray<string | null> | null | undefined): boolean {
	const versions = (allowed ?? []).flatMap(version => (version ? [version] : []));
	return versions.length === 0 || model.manufacturer !== 'Nvidia' || versions.some(version => versionNumber(version) >= versionNumber(minimumCuda(model)));
}

/** What a CPU-only (0-GPU) pod pays per hour: vCPU, memory, and disks (about $0.10 per GB-month). */
export const cpuPodPrices = {perVcpu: 0.02, perGbMemory: 0.005, perGbDisk: 0.1 / 730} as const;
