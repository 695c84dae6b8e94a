import type {Endpoint} from '../endpoint.js';
import {createEndpointId} from '../ids.js';
import {gpuCatalogue} from '../market/gpu-catalogue.js';
import {podView} from '../pods/pod-view.js';
import type {DeployInput} from '../pods/pod-request.js';
import {ServiceError} from '../service-error.js';
import type {Simulator} from '../simulator.js';
import {endpointFromInput, endpointView, simUserId, type EndpointInput} from './endpoint-record.js';
import {gpuTypeView} from './gpu-type-view.js';

type PodIdInput = {
	readonly input: {
		readonly podId: string;
		readonly gpuCount?: number | null;
		readonly bidPerGpu?: number;
		readonly allowedCudaVersions?: ReadonlyArray<string | null> | null;
	};
};

function accountEndpoint(sim: Simulator, id: string): Endpoint {
	const endpoint = sim.endpoints.get(id);
	if (!endpoint || endpoint.spec.public) {
		throw new ServiceError(`Endpoint ${id} not found`, 'NOT_FOUND');
	}

	return endpoint;
}

/** The simulated account's balance at the simulator's first moment, in dollars. */
export const startingBalance = 1234.56;

/** Root resolvers for graphql-js: one function per query and mutation field of the schema. */
export function createRootValue(sim: Simulator): Record<string, unknown> {
	const {clock} = sim;
	const pods = () => sim.pods.list().map(pod => podView(pod, clock));
	return {
		myself: () => ({
			id: simUserId,
			email: 'operator@podtop.invalid',
			// What the account started with, less what has been billed since (in 5-minute runs, as the bills).
			clientBalance: () => Math.round((startingBalance - sim.billing.billedSince(sim.billing.origin)) * 100) / 100,
			currentSpendPerHr: () => Math.round(sim.billing.ledger.ratePerHour() * 1000) / 1000,
			spendLimit: 80,
			endpoints: () =>
				[...sim.endpoints.values()].filter(endpoint => !endpoint.spec.public).map(endpoint => endpointView(endpoint.spec, () => endpoint.workers)),
			pods,
			serverlessDiscount: {discountFactor: 0.85, type: 'ACTIVE_WORKER', expirationDate: '2027-01-01T00:00:00.000Z'},
		}),
		pod({input}: {input: {podId: string}}) {
			const pod = sim.pods.get(input.podId);
			return pod ? podView(pod, clock) : null;
		},
		gpuTypes({input}: {input?: {id?: string | null; ids?: ReadonlyArray<string | null> | null} | null}) {
			const wanted = new Set([input?.id, ...(input?.ids ?? [])].filter(Boolean));
			return gpuCatalogue.filter(model => wanted.size === 0 || wanted.has(model.id)).map(model => gpuTypeView(model, sim.market));
		},
		saveEndpoint({input}: {input: EndpointInput}) {
			if (input.id) {
				const endpoint = accountEndpoint(sim, input.id);
				const spec = endpointFromInput(input, {
					id: endpoint.id,
					createdAt: endpoint.spec.createdAt,
					version: endpoint.spec.version + 1,
					previous: endpoint.spec,
				});
				endpoint.update(spec);
				return endpointView(spec, () => endpoint.workers);
			}

			const spec = endpointFromInput(input, {id: createEndpointId(sim.random), createdAt: new Date(clock.now()).toISOString(), version: 0});
			sim.addEndpoint(spec);
			return endpointView(spec);
		},
		deleteEndpoint({id}: {id: string}) {
			const endpoint = accountEndpoint(sim, id);
			if (endpoint.spec.workersMin !== 0 || endpoint.spec.workersMax !== 0) {
				throw new ServiceError(
					`Endpoint ${id} still has workers (min ${endpoint.spec.workersMin}, max ${endpoint.spec.workersMax}): set workersMin and workersMax to 0 before deleting it`,
					'CONFLICT',
				);
			}

			sim.removeEndpoint(id);
			return null;
		},
		podFindAndDeployOnDemand: ({input}: {input: DeployInput}) => podView(sim.pods.deploy(input, false), clock),
		podRentInterruptable: ({input}: {input: DeployInput}) => podView(sim.pods.deploy(input, true), clock),
		podResume: ({input}: PodIdInput) => podView(sim.pods.resume(input.podId, input.gpuCount, input.allowedCudaVersions), clock),
		podBidResume: ({input}: PodIdInput) => podView(sim.pods.bidResume(input.podId, input.bidPerGpu!, input.gpuCount), clock),
		podStop: ({input}: PodIdInput) => podView(sim.pods.stop(input.podId), clock),
		podTerminate({input}: PodIdInput) {
			sim.pods.terminate(input.podId);
			return null;
		},
	};
}
