import type {SimClock, SimTimer} from '../clock.js';
import {createEndpointId} from '../ids.js';
import {cpuPodPrices, cudaAllows, dataCenters, findGpu} from '../market/gpu-catalogue.js';
import type {CloudChoice, Market} from '../market/market.js';
import type {Random} from '../random.js';
import {messages, ServiceError} from '../service-error.js';
import {demoPods} from './demo-pods.js';
import {patternForImage, type LoadPattern} from './load-patterns.js';
import type {PodCloud, SimPod} from './pod.js';
import {PodLogs} from './pod-logs.js';
import {checkGpuCount, validateDeploy, type DeployInput} from './pod-request.js';

/** How often the spot market checks bids against the price (simulated ms). */
const spotCheckMs = 15_000;

const stamp = (reason: string, now: number) => `${reason}: ${new Date(now).toString()}`;
const round = (value: number) => Math.round(value * 1000) / 1000;

/** A pod's $/hr: its GPUs at the per-GPU price; a CPU-only pod pays for vCPU, memory and disks instead. */
function costPerHour(pod: SimPod, perGpu: number): number {
	if (pod.gpuCount > 0) {
		return round(perGpu * pod.gpuCount);
	}

	const disks = (pod.containerDiskInGb + pod.volumeInGb) * cpuPodPrices.perGbDisk;
	return round(pod.vcpuCount * cpuPodPrices.perVcpu + pod.memoryInGb * cpuPodPrices.perGbMemory + disks);
}

/** Told of a pod's change (`since`: when the founding fleet's pod entered its state, if known). */
export type PodMeter = (pod: SimPod, since?: number) => void;

/** The account's pods: deploy, stop, resume, bid-resume, terminate, and spot interruptions. */
export class PodFleet {
	/** Every pod's log (REST v2 `/pods/{id}/logs`). */
	readonly logs: PodLogs;
	readonly #pods = new Map<string, SimPod>();
	readonly #market: Market;
	readonly #clock: SimClock;
	readonly #random: Random;
	readonly #meter: PodMeter;
	#spotTimer?: SimTimer;

	constructor(options: {
		readonly market: Market;
		readonly clock: SimClock;
		readonly random: Random;
		readonly count: number;
		/** Told of every pod's changes, for the bills. */
		readonly meter?: PodMeter;
	}) {
		this.#market = options.market;
		this.#clock = options.clock;
		this.#random = options.random;
		this.#meter = options.meter ?? (() => {});
		this.logs = new PodLogs(options.clock, options.random.fork('pod-logs'), () => this.#pods.values());
		for (const pod of demoPods(options.count, {random: this.#random, market: this.#market, now: this.#clock.now()})) {
			this.#pods.set(pod.id, pod);
			this.#meter(pod, pod.startedAt);
			if (pod.startedAt !== undefined) {
				this.logs.booted(pod, pod.startedAt);
			}
		}

		this.#scheduleSpotCheck();
	}

	list(): SimPod[] {
		return [...this.#pods.values()];
	}

	get(id: string): SimPod | undefined {
		return this.#pods.get(id);
	}

	/** A pod was changed in place (its disk resized): what it pays may have changed. */
	changed(pod: SimPod): void {
		this.#meter(pod);
	}

	deploy(input: DeployInput, spot: boolean): SimPod {
		const {model, gpuCount, dataCenterId} = validateDeploy(input);
		if (!cudaAllows(model, input.allowedCudaVersions)) {
			throw new ServiceError(messages.noCapacity, 'NO_CAPACITY');
		}

		const cloud: CloudChoice = input.cloudType ?? 'ALL';
		const podCloud: PodCloud = cloud === 'ALL' ? (model.communityPrice === undefined ? 'SECURE' : 'COMMUNITY') : cloud;
		const price = this.#market.onDemandPrice(model, podCloud);
		if (price === undefined) {
			throw new ServiceError(messages.noCapacity, 'NO_CAPACITY');
		}

		if (spot) {
			this.#checkBid(model.id, podCloud, input.bidPerGpu ?? 0);
		}

		if (!this.#market.hold(model.id, gpuCount)) {
			throw new ServiceError(messages.noCapacity, 'NO_CAPACITY');
		}

		const now = this.#clock.now();
		const id = createEndpointId(this.#random);
		const imageName = input.imageName ?? `runpod/${input.templateId}`;
		const pod: SimPod = {
			id,
			name: input.name || `${model.displayName} pod`,
			imageName,
			gpuTypeId: model.id,
			gpuCount,
			cloudType: podCloud,
			interruptible: spot,
			bidPerGpu: spot ? (input.bidPerGpu ?? undefined) : undefined,
			costPerHr: 0,
			desiredStatus: 'RUNNING',
			startedAt: now,
			lastStatusChange: stamp('Rented by User', now),
			env: (input.env ?? []).map(({key, value}) => `${key}=${value}`),
			ports: input.ports ? input.ports.replaceAll(' ', '') : null,
			volumeInGb: input.volumeInGb ?? 0,
			containerDiskInGb: input.containerDiskInGb ?? 20,
			vcpuCount: Math.max(input.minVcpuCount ?? 0, gpuCount === 0 ? 2 : 8 * gpuCount),
			memoryInGb: Math.max(input.minMemoryInGb ?? 0, gpuCount === 0 ? 8 : 31 * gpuCount),
			volumeMountPath: input.volumeMountPath ?? '/workspace',
			dockerArgs: input.dockerArgs ?? '',
			templateId: input.templateId ?? null,
			networkVolumeId: input.networkVolumeId ?? null,
			dataCenterId: dataCenterId ?? this.#random.pick(dataCenters).id,
			machineId: this.#random.alphanumeric(12),
			podHostId: `${id}-${this.#random.int(10_000_000, 99_999_999)}`,
			pattern: patternForImage(imageName) satisfies LoadPattern,
			seed: this.#random.int(1, 2 ** 30),
			version: 0,
		};
		pod.costPerHr = costPerHour(pod, spot ? input.bidPerGpu! : price);
		pod.createdAt = now;
		this.#pods.set(pod.id, pod);
		this.#meter(pod);
		this.logs.booted(pod, now);
		return pod;
	}

	stop(id: string): SimPod {
		const pod = this.#require(id);
		if (pod.desiredStatus !== 'RUNNING') {
			throw new ServiceError(`Pod ${id} is not running`, 'CONFLICT');
		}

		this.#halt(pod, 'Exited by user');
		return pod;
	}

	resume(id: string, gpuCount?: number | null, allowedCudaVersions?: ReadonlyArray<string | null> | null): SimPod {
		const pod = this.#require(id);
		if (!cudaAllows(findGpu(pod.gpuTypeId)!, allowedCudaVersions)) {
			throw new ServiceError(messages.noFreeGpus, 'NO_CAPACITY');
		}

		if (pod.interruptible) {
			throw new ServiceError(`Pod ${id} is a spot pod; resume it with podBidResume`);
		}

		return this.#start(pod, gpuCount ?? pod.gpuCount);
	}

	bidResume(id: string, bidPerGpu: number, gpuCount?: number | null): SimPod {
		const pod = this.#require(id);
		if (!pod.interruptible) {
			throw new ServiceError(`Pod ${id} is an on-demand pod; resume it with podResume`);
		}

		this.#checkBid(pod.gpuTypeId, pod.cloudType, bidPerGpu);
		pod.bidPerGpu = bidPerGpu;
		return this.#start(pod, gpuCount ?? pod.gpuCount);
	}

	/** A running pod's container starts again on the same GPUs (REST v2 `restart`). */
	restart(id: string): SimPod {
		const pod = this.#require(id);
		if (pod.desiredStatus !== 'RUNNING') {
			throw new ServiceError(`Pod ${id} is not running`, 'CONFLICT');
		}

		const now = this.#clock.now();
		pod.startedAt = now;
		pod.lastStatusChange = stamp('Restarted by user', now);
		pod.version++;
		this.logs.stopped(pod, 'restart');
		this.logs.booted(pod, now);
		return pod;
	}

	terminate(id: string): void {
		const pod = this.#require(id);
		if (pod.desiredStatus === 'RUNNING') {
			this.#market.release(pod.gpuTypeId, pod.gpuCount);
		}

		pod.desiredStatus = 'TERMINATED';
		this.#pods.delete(id);
		this.#meter(pod);
		this.logs.terminated(pod);
	}

	close(): void {
		this.#spotTimer?.cancel();
		this.logs.close();
	}

	#require(id: string): SimPod {
		const pod = this.#pods.get(id);
		if (!pod) {
			throw new ServiceError(`Pod ${id} not found`, 'NOT_FOUND');
		}

		return pod;
	}

	#start(pod: SimPod, gpuCount: number): SimPod {
		if (pod.desiredStatus === 'RUNNING') {
			throw new ServiceError(`Pod ${pod.id} is already running`, 'CONFLICT');
		}

		const model = findGpu(pod.gpuTypeId)!;
		checkGpuCount(model, gpuCount);

		if (!this.#market.hold(pod.gpuTypeId, gpuCount)) {
			throw new ServiceError(messages.noFreeGpus, 'NO_CAPACITY');
		}

		const perGpu = pod.interruptible ? pod.bidPerGpu! : this.#market.onDemandPrice(model, pod.cloudType)!;
		const now = this.#clock.now();
		pod.gpuCount = gpuCount;
		pod.costPerHr = costPerHour(pod, perGpu);
		pod.desiredStatus = 'RUNNING';
		pod.startedAt = now;
		pod.lastStatusChange = stamp('Resumed by user', now);
		pod.version++;
		this.#meter(pod);
		this.logs.booted(pod, now);
		return pod;
	}

	#halt(pod: SimPod, reason: string): void {
		this.#market.release(pod.gpuTypeId, pod.gpuCount);
		pod.desiredStatus = 'EXITED';
		pod.startedAt = undefined;
		pod.lastStatusChange = stamp(reason, this.#clock.now());
		pod.version++;
		this.#meter(pod);
		this.logs.stopped(pod, reason);
	}

	#checkBid(gpuTypeId: string, cloud: PodCloud, bid: number): void {
		const minimum = this.#market.spotPrice(findGpu(gpuTypeId)!, cloud);
		if (minimum === undefined) {
			throw new ServiceError(messages.noCapacity, 'NO_CAPACITY');
		}

		if (!(bid >= minimum)) {
			throw new ServiceError(`Your bid of $${bid}/GPU/hr is below the minimum bid price of $${minimum}/GPU/hr.`);
		}
	}

	/** Spot pods whose bid the market price has passed are interrupted (EXITED). */
	#scheduleSpotCheck(): void {
		this.#spotTimer = this.#clock.setTimeout(
			() => {
				for (const pod of this.#pods.values()) {
					if (pod.interruptible && pod.desiredStatus === 'RUNNING') {
						const price = this.#market.spotPrice(findGpu(pod.gpuTypeId)!, pod.cloudType);
						if (price !== undefined && price > pod.bidPerGpu!) {
							this.#halt(pod, `Interrupted: spot price $${price}/GPU/hr rose above the bid`);
						}
					}
				}

				this.#scheduleSpotCheck();
			},
			Math.max(spotCheckMs, this.#clock.speed * 50),
		);
	}
}
