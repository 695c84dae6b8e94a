import {RestError} from './rest-error.js';
import {ok, type RestHandler, type RestRoute} from './router.js';

const missing: RestHandler = ({params}) => {
	throw new RestError(404, `${params.id!} not found`);
};

const stub = (path: string, key: string): RestRoute[] => [
	{path, methods: {GET: () => ok({[key]: []})}},
	{path: `${path}/{id}`, methods: {GET: missing, DELETE: missing, ...(path === '/registries' || path === '/registries/delegations' ? {} : {PATCH: missing})}},
];

/** Resources the simulator does not model yet: empty wrapped lists, and 404 for every id, as the spec answers an account without any. */
export const stubRoutes: readonly RestRoute[] = [
	...stub('/clusters', 'clusters'),
	...stub('/templates', 'templates'),
	...stub('/network-volumes', 'networkVolumes'),
	...stub('/registries', 'registries'),
	...stub('/registries/delegations', 'delegations'),
	{path: '/clusters/{id}/pods', methods: {GET: missing}},
];
