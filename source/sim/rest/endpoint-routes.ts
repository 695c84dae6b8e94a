import type {Endpoint} from '../endpoint.js';
import {createEndpointId} from '../ids.js';
import type {Simulator} from '../simulator.js';
import {endpointFromCreate, endpointFromPatch} from './endpoint-input.js';
import {endpointResource} from './endpoint-resource.js';
import {RestError} from './rest-error.js';
import {created, noContent, ok, type RestRoute} from './router.js';

/** One of the account's endpoints (the public model endpoints are not the account's). */
export function accountEndpoint(sim: Simulator, id: string): Endpoint {
	const endpoint = sim.endpoints.get(id);
	if (!endpoint || endpoint.spec.public) {
		throw new RestError(404, `endpoint ${id} not found`);
	}

	return endpoint;
}

const view = (sim: Simulator, endpoint: Endpoint) => endpointResource(endpoint.spec, sim.baseUrl);

/** `/v2/serverless`: list, get, create, PATCH (only what is sent) and delete the account's endpoints. */
export const endpointRoutes: readonly RestRoute[] = [
	{
		path: '/serverless',
		methods: {
			GET: ({sim}) => ok({endpoints: [...sim.endpoints.values()].filter(endpoint => !endpoint.spec.public).map(endpoint => view(sim, endpoint))}),
			async POST({sim, body}) {
				const spec = endpointFromCreate(await body(), {id: createEndpointId(sim.random), createdAt: new Date(sim.clock.now()).toISOString()});
				return created(view(sim, sim.addEndpoint(spec)));
			},
		},
	},
	{
		path: '/serverless/{id}',
		methods: {
			GET: ({sim, params}) => ok(view(sim, accountEndpoint(sim, params.id!))),
			async PATCH({sim, params, body}) {
				const endpoint = accountEndpoint(sim, params.id!);
				endpoint.update(endpointFromPatch(await body(), endpoint.spec));
				return ok(view(sim, endpoint));
			},
			DELETE({sim, params}) {
				sim.removeEndpoint(accountEndpoint(sim, params.id!).id);
				return noContent;
			},
		},
	},
];
