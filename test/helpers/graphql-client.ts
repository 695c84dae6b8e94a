import {request} from 'undici';
import {readReply, type Reply, type TestSim} from './sim-client.js';

export type GraphqlReply = Reply;

/** POSTs a GraphQL document to the simulator: key as Bearer (default), as `?api_key=`, or none. */
export async function gql(
	sim: TestSim,
	query: string,
	options: {variables?: Record<string, unknown>; operationName?: string; auth?: 'bearer' | 'query' | 'none'; key?: string} = {},
): Promise<GraphqlReply> {
	const key = options.key ?? sim.apiKey;
	const auth = options.auth ?? 'bearer';
	const url = auth === 'query' ? `${sim.url}/graphql?api_key=${encodeURIComponent(key)}` : `${sim.url}/graphql`;
	const headers: Record<string, string> = {'content-type': 'application/json'};
	if (auth === 'bearer') {
		headers.authorization = `Bearer ${key}`;
	}

	const body: Record<string, unknown> = {query};
	if (options.variables) {
		body.variables = options.variables;
	}

	if (options.operationName) {
		body.operationName = options.operationName;
	}

	return readReply(await request(url, {method: 'POST', headers, body: JSON.stringify(body), headersTimeout: 10_000, bodyTimeout: 10_000}));
}

/** Data of a successful query; fails the test with the errors otherwise. */
export async function gqlData(sim: TestSim, query: string, variables?: Record<string, unknown>): Promise<any> {
	const reply = await gql(sim, query, {variables});
	if (reply.status !== 200 || reply.body.errors) {
		throw new Error(`GraphQL failed (${reply.status}): ${JSON.stringify(reply.body)}`);
	}

	return reply.body.data;
}
