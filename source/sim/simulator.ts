import {SlidingWindow} from '../lib/sliding-window.js';
import {SimBilling} from './billing/sim-billing.js';
import {SimClock} from './clock.js';
import {Endpoint} from './endpoint.js';
import {FaultInjector} from './faults.js';
import {toEndpointSpec, type EndpointSpec, type EndpointSpecInput} from './endpoint-spec.js';
import {createDemoEndpoints, publicModelEndpoints} from './fleet.js';
import {LoadGenerator} from './load-generator.js';
import {Market} from './market/market.js';
import {PodFleet} from './pods/pod-fleet.js';
import {createRandom, type Random} from './random.js';
import {RateLimiter, type Admission} from './rate-limiter.js';
import {defaultRestQuota, RateWindows, type RestQuota} from './rest/rate-windows.js';
import {SimStats} from './stats.js';
import {WebhookSender} from './webhook.js';

export type SimulatorConfig = {
	readonly apiKey: string;
	readonly seed: number;
	readonly speed: number;
	readonly rateLimitScale: number;
	readonly workerAllowance: number;
	/** Background load generator on. */
	readonly load: boolean;
	/** The account's endpoints; the demo fleet when absent. */
	readonly endpoints?: readonly EndpointSpecInput[];
	/** Size of the generated demo fleet when `endpoints` is absent. */
	readonly endpointCount?: number;
	/** Number of pods in the fleet. */
	readonly podCount: number;
	/** GraphQL requests per second allowed per key (the service publishes none; clients must still budget it). */
	readonly graphqlRate: number;
	/** REST v2 requests per key owner per minute, hour and day (the spec's 60/3000/50000 when absent). */
	readonly restQuota?: RestQuota;
	/** A team Dev key: everything the account key may do but read billing (403), as the service's team roles have it. */
	readonly devApiKey?: string;
	/** `retired`: GraphQL answers 410 Gone, as the service will once it is retired. */
	readonly graphql?: 'on' | 'retired';
	/** The clock starts this far in the past (ms), for `runPast` to run through before real time (`--past`). */
	readonly pastMs?: number;
	/** The present the past runs up to (simulated epoch ms); the wall clock when absent. */
	readonly startAt?: number;
	/**
	The simulated epoch ms the clock starts at, exactly: its past runs from there to the present (instead
	of `pastMs`). The same origin and seed give the same fleet and the same past (the demo's one world).
	*/
	readonly origin?: number;
};

/** The simulated service: one fleet that the job API (and later the GraphQL API) reads and changes. */
export class Simulator {
	readonly config: SimulatorConfig;
	readonly clock: SimClock;
	readonly random: Random;
	readonly stats = new SimStats();
	readonly faults = new FaultInjector();
	readonly limiter: RateLimiter;
	readonly endpoints = new Map<string, Endpoint>();
	readonly market: Market;
	readonly pods: PodFleet;
	/** REST v2's minute, hour and day windows, per key owner, on the simulated clock. */
	readonly restWindows: RateWindows;
	/** What the account's resources paid, billed in 5-minute runs. */
	readonly billing: SimBilling;
	baseUrl = '';
	readonly #graphqlWindows = new Map<string, SlidingWindow>();
	readonly #webhooks: WebhookSender;
	readonly #load: LoadGenerator;

	constructor(config: SimulatorConfig) {
		this.config = config;
		const present = config.startAt ?? Date.now();
		this.clock = new SimClock(config.speed, present, config.origin === undefined ? (config.pastMs ?? 0) : Math.max(0, present - config.origin));
		this.random = createRandom(config.seed);
		this.restWindows = new RateWindows(config.restQuota ?? defaultRestQuota, () => this.clock.now());
		this.limiter = new RateLimiter({scale: config.rateLimitScale, workerAllowance: config.workerAllowance});
		this.#webhooks = new WebhookSender(this.clock);
		this.#load = new LoadGenerator(this.clock, this.random.fork('load'));
		this.market = new Market(config.seed, () => this.clock.elapsed());
		this.billing = new SimBilling(this.clock);
		this.pods = new PodFleet({
			market: this.market,
			clock: this.clock,
			random: this.random.fork('pods'),
			count: config.podCount,
			meter: (pod, since) => {
				this.billing.pod(pod, since);
				if (pod.networkVolumeId) {
					this.billing.volume(pod.networkVolumeId);
				}
			},
		});
		const specs = config.endpoints
			? config.endpoints.map(spec => toEndpointSpec(spec))
			: [...createDemoEndpoints(this.random.fork('fleet'), config.endpointCount), ...publicModelEndpoints];
		for (const spec of specs) {
			this.addEndpoint(spec, config.load);
		}

		this.billing.founded();
	}

	/** `warm`: the endpoint has been serving for hours (the demo fleet), not just created. */
	addEndpoint(spec: EndpointSpec, warm = false): Endpoint {
		if (this.endpoints.has(spec.id)) {
			throw new Error(`endpoint ${spec.id} exists already`);
		}

		const endpoint = new Endpoint({
			spec,
			clock: this.clock,
			random: this.random.fork(`endpoint:${spec.id}`),
			baseUrl: () => this.baseUrl,
			warm,
			crashCause: () => this.faults.crashCauseOf(spec.id),
			meter: spec.public
				? undefined
				: (worker, change) => {
						this.billing.worker(spec.id, worker, change);
					},
			onTerminal: job => {
				this.#webhooks.send(job);
			},
		});
		this.endpoints.set(spec.id, endpoint);
		if (spec.networkVolumeId && !spec.public) {
			this.billing.volume(spec.networkVolumeId);
		}

		if (this.config.load) {
			this.#load.add(endpoint);
		}

		return endpoint;
	}

	removeEndpoint(id: string): boolean {
		const endpoint = this.endpoints.get(id);
		if (!endpoint) {
			return false;
		}

		this.#load.remove(endpoint);
		endpoint.dispose();
		this.endpoints.delete(id);
		return true;
	}

	/** GraphQL's per-key request rate (`--graphql-rate`): a sliding one-second window. */
	admitGraphql(apiKey: string, now = performance.now()): Admission {
		let window = this.#graphqlWindows.get(apiKey);
		if (!window) {
			window = new SlidingWindow(1000);
			this.#graphqlWindows.set(apiKey, window);
		}

		const allowed = Math.max(1, Math.floor(this.config.graphqlRate));
		if (window.count(now) >= allowed) {
			return {ok: false, retryAfterSeconds: 1, reason: `Rate limit exceeded: ${allowed} GraphQL requests per second`};
		}

		window.add(now);
		return {ok: true, release() {}};
	}

	close(): void {
		this.#load.close();
		this.pods.close();
		this.#webhooks.close();
		for (const endpoint of this.endpoints.values()) {
			endpoint.dispose();
		}

		this.endpoints.clear();
		this.clock.close();
	}
}
