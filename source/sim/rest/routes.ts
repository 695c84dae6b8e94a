import {billingRoutes} from './billing-routes.js';
import {catalogRoutes} from './catalog-routes.js';
import {endpointRoutes} from './endpoint-routes.js';
import {podRoutes} from './pod-routes.js';
import type {RestRoute} from './router.js';
import {stubRoutes} from './stub-routes.js';
import {workerRoutes} from './worker-routes.js';

/** Every v2 route the simulator serves. */
export const restRoutes: readonly RestRoute[] = [...podRoutes, ...endpointRoutes, ...workerRoutes, ...catalogRoutes, ...billingRoutes, ...stubRoutes];
