import {accountBill, publicEndpointBill, resourceBill} from '../billing/billing-answers.js';
import {billingWindow} from '../billing/billing-window.js';
import type {BilledKind} from '../billing/components.js';
import {RestError} from './rest-error.js';
import {ok, type RestContext, type RestHandler, type RestRoute} from './router.js';

/** A team Dev key may do everything but read billing. */
function window(context: RestContext) {
	if (context.role !== 'owner') {
		throw new RestError(403, 'This API key does not have permission to read billing.');
	}

	return billingWindow(context.query, context.sim.clock.now());
}

const resource =
	(kind: BilledKind, filter: string): RestHandler =>
	context => {
		const resolved = window(context);
		return ok(resourceBill(context.sim.billing, resolved, kind, context.query.string(filter)));
	};

/** `/v2/billing/...`: the account's bills, from what its fleet did, in 5-minute runs. */
export const billingRoutes: readonly RestRoute[] = [
	{path: '/billing', methods: {GET: context => ok(accountBill(context.sim.billing, window(context)))}},
	{path: '/billing/pods', methods: {GET: resource('pod', 'podId')}},
	{path: '/billing/serverless', methods: {GET: resource('serverless', 'serverlessId')}},
	{path: '/billing/network-volumes', methods: {GET: resource('volume', 'networkVolumeId')}},
	{path: '/billing/clusters', methods: {GET: resource('cluster', 'clusterId')}},
	{path: '/billing/endpoints', methods: {GET: context => ok(publicEndpointBill(window(context)))}},
];
