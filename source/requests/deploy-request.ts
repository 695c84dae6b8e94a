import type {EnvironmentVariable} from '../model/endpoint.js';
import type {PodDeployInput} from '../model/pod.js';

export const clouds = ['all', 'secure', 'community'] as const;
export type Cloud = (typeof clouds)[number];
export const cloudTypes: Readonly<Record<Cloud, 'ALL' | 'SECURE' | 'COMMUNITY'>> = {all: 'ALL', secure: 'SECURE', community: 'COMMUNITY'};

/** What a person fills in to deploy a pod, as text (a form's fields, or flags). */
export type DeployFields = {
	readonly gpuTypeId: string;
	readonly count: string;
	readonly cloud: string;
	readonly spot: boolean;
	readonly bid: string;
	readonly image: string;
	readonly name: string;
	readonly containerDisk: string;
	readonly volume: string;
	readonly mountPath: string;
	/** `8888/http,22/tcp`. */
	readonly ports: string;
	/** `KEY=value` entries. */
	readonly env: readonly string[];
	readonly minVcpu: string;
	readonly minMemory: string;
};

/** What the market says of the type for this count and cloud, when known. */
export type Market = {readonly minimumBid?: number; readonly maxGpuCount?: number; readonly pricePerGpu?: number};

export type DeployProblems = Partial<Record<keyof DeployFields, string>>;

export type DeployPlan = {
	readonly input: PodDeployInput;
	/** Spot pods go out as `podRentInterruptable` with this bid per GPU. */
	readonly bidPerGpu?: number;
	/** $/h per GPU, when known (the bid for spot). */
	readonly pricePerGpu?: number;
};

const whole = (text: string, fallback: number | undefined, min: number, max: number): {value?: number; problem?: string} => {
	const trimmed = text.trim();
	if (trimmed === '') {
		return {value: fallback};
	}

	const value = Number(trimmed);
	return Number.isInteger(value) && value >= min && value <= max ? {value} : {problem: `must be a whole number from ${min} to ${max}`};
};

/** `8888/http,22/tcp`: each a port from 1 to 65535 and http, tcp or udp; a port past those is out of range, not a format error. */
export function portsProblem(ports: string): string | undefined {
	for (const entry of ports
		.split(',')
		.map(each => each.trim())
		.filter(Boolean)) {
		const match = /^(\d+)\/(http|tcp|udp)$/.exec(entry);
		if (!match) {
			return `"${entry}" is not PORT/http, PORT/tcp or PORT/udp (for example 8888/http,22/tcp)`;
		}

		const port = Number(match[1]);
		if (port < 1 || port > 65_535) {
			return `"${entry}": port ${match[1]} is out of range (1 to 65535)`;
		}
	}

	return undefined;
}

/** `KEY=value` entries as the API takes them; a bad name is a problem. */
export function parseEnv(entries: readonly string[]): {env: EnvironmentVariable[]} | {problem: string} {
	const env: EnvironmentVariable[] = [];
	for (const entry of entries.map(each => each.trim()).filter(Boolean)) {
		const equals = entry.indexOf('=');
		const key = equals === -1 ? entry : entry.slice(0, equals);
		if (equals === -1 || !/^[A-Za-z_]\w*$/.test(key)) {
			return {problem: `"${key}" is not KEY=value with a KEY of letters, digits and _`};
		}

		env.push({key, value: entry.slice(equals + 1)});
	}

	return {env};
}

/** Every field's problem and, when there are none, the mutation's input. Nothing here is sent. */
export function planDeploy(fields: DeployFields, market: Market = {}): {problems: DeployProblems; plan?: DeployPlan} {
	const problems: DeployProblems = {};
	if (fields.gpuTypeId.trim() === '') {
		problems.gpuTypeId = 'is required (a GPU type id, as the GPUs pane lists them)';
	}

	const count = whole(fields.count, 1, 0, market.maxGpuCount ?? 8);
	const containerDisk = whole(fields.containerDisk, 20, 1, 2000);
	const volume = whole(fields.volume, 0, 0, 10_000);
	const minVcpu = whole(fields.minVcpu, undefined, 1, 256);
	const minMemory = whole(fields.minMemory, undefined, 1, 2048);
	for (const [name, parsed] of [
		['count', count],
		['containerDisk', containerDisk],
		['volume', volume],
		['minVcpu', minVcpu],
		['minMemory', minMemory],
	] as const) {
		if (parsed.problem) {
			problems[name] = parsed.problem;
		}
	}

	if (!(clouds as readonly string[]).includes(fields.cloud)) {
		problems.cloud = 'must be secure, community or all';
	}

	let bidPerGpu: number | undefined;
	if (fields.spot) {
		const bid = Number(fields.bid.trim());
		if (fields.bid.trim() === '' || !Number.isFinite(bid) || bid <= 0) {
			problems.bid =
				market.minimumBid === undefined ? 'is required for spot: dollars per GPU per hour' : `is required for spot: at least $${market.minimumBid}`;
		} else if (market.minimumBid !== undefined && bid < market.minimumBid) {
			problems.bid = `must be at least the minimum bid for this count, $${market.minimumBid}`;
		} else {
			bidPerGpu = bid;
		}
	}

	if (fields.image.trim() === '') {
		problems.image = 'is required: the container image to run (for example runpod/pytorch)';
	}

	if (fields.mountPath.trim() !== '' && !fields.mountPath.trim().startsWith('/')) {
		problems.mountPath = 'must be an absolute path such as /workspace';
	}

	const ports = portsProblem(fields.ports);
	if (ports) {
		problems.ports = ports;
	}

	const env = parseEnv(fields.env);
	if ('problem' in env) {
		problems.env = env.problem;
	}

	if (Object.keys(problems).length > 0 || 'problem' in env) {
		return {problems};
	}

	const input: PodDeployInput = {
		gpuTypeId: fields.gpuTypeId.trim(),
		gpuCount: count.value,
		cloudType: cloudTypes[fields.cloud as Cloud],
		imageName: fields.image.trim(),
		...(fields.name.trim() ? {name: fields.name.trim()} : {}),
		containerDiskInGb: containerDisk.value,
		volumeInGb: volume.value,
		...(fields.mountPath.trim() ? {volumeMountPath: fields.mountPath.trim()} : {}),
		...(fields.ports.trim() ? {ports: fields.ports.replaceAll(' ', '')} : {}),
		...(env.env.length > 0 ? {env: env.env} : {}),
		...(minVcpu.value === undefined ? {} : {minVcpuCount: minVcpu.value}),
		...(minMemory.value === undefined ? {} : {minMemoryInGb: minMemory.value}),
	};
	return {problems, plan: {input, ...(bidPerGpu === undefined ? {} : {bidPerGpu}), pricePerGpu: bidPerGpu ?? market.pricePerGpu}};
}

/** The market facts a deploy checks against, from a GPU type's offer. */
export function marketOf(offer: {
	readonly maxGpuCount?: number | null;
	readonly lowestPrice?: {readonly minimumBidPrice?: number | null; readonly uninterruptablePrice?: number | null} | null;
}): Market {
	return {
		maxGpuCount: offer.maxGpuCount ?? undefined,
		minimumBid: offer.lowestPrice?.minimumBidPrice ?? undefined,
		pricePerGpu: offer.lowestPrice?.uninterruptablePrice ?? undefined,
	};
}
