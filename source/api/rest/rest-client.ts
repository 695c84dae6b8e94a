import createClient, {type Client} from 'openapi-fetch';
import {fetch as undiciFetch, Request as UndiciRequest} from 'undici';
import type {Pools} from '../pools.js';
import {boundedResponse} from './bounded-response.js';
import type {paths} from './v2-schema.js';

/** What every v2 answer tells the rate budget: its status and headers (`RateLimit`, `RateLimit-Policy`, `Retry-After`). */
export type RestAnswerSeen = {readonly status: number; readonly headers: {readonly get: (name: string) => string | null}};

export type RestClientOptions = {
	/** The origin whose paths carry `/v2` (`https://api.runpod.io`). */
	readonly baseUrl: string;
	readonly apiKey: string;
	readonly pools: Pools;
	/** Called after every answer, whatever its status or body (an edge proxy's empty 429 too), before its body is read. */
	readonly onAnswer?: (answer: RestAnswerSeen) => void;
};

export type RestClient = Client<paths>;

/**
The typed v2 client: openapi-fetch over the spec's generated paths, its `fetch` routed through undici's
pool for the origin (as GraphQL's is), redirects not followed (an answer elsewhere is not the service's),
query arrays comma-joined as the spec's `explode: false` says (`product=POD,SERVERLESS`; a repeated key is
refused). The key goes in the Authorization header only. Every answer's body is bounded (see boundedResponse).
*/
export function createRestClient({baseUrl, apiKey, pools, onAnswer}: RestClientOptions): RestClient {
	const origin = new URL(baseUrl);
	const dispatcher = pools.for(origin);
	const send = async (request: Request) => {
		const response = await undiciFetch(request as unknown as UndiciRequest, {dispatcher});
		onAnswer?.({status: response.status, headers: response.headers});
		// Undici's Response is the one openapi-fetch reads (the global one is Node's own copy of undici).
		return (await boundedResponse(response)) as unknown as Response;
	};

	return createClient<paths>({
		baseUrl: origin.origin + origin.pathname.replace(/\/+$/, ''),
		headers: {authorization: `Bearer ${apiKey}`, 'user-agent': 'podtop', accept: 'application/json, application/problem+json'},
		Request: UndiciRequest as unknown as typeof Request,
		fetch: send,
		redirect: 'manual',
		querySerializer: {array: {style: 'form', explode: false}},
	});
}
