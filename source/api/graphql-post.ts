import type {Dispatcher, Pool} from 'undici';
import {ApiError, fromTransportError} from './errors.js';
import {graphqlError} from './graphql-errors.js';

export type GraphqlPost = {
	readonly pool: Pool;
	readonly url: URL;
	readonly headers: Record<string, string>;
	readonly document: string;
	readonly variables?: Record<string, unknown>;
	readonly signal: AbortSignal;
	readonly label: string;
};

export type GraphqlAnswer<T = unknown> = {readonly data?: T | null; readonly errors?: Parameters<typeof graphqlError>[0]['errors']};

/** A GraphQL document sent as graphql-request sends it (POST, JSON, the answers it accepts), straight through the origin's pool. */
export async function sendQuery({pool, url, headers, document, variables = {}, signal}: GraphqlPost): Promise<Dispatcher.ResponseData> {
	return pool.request({
		path: url.pathname + url.search,
		method: 'POST',
		headers: {...headers, accept: 'application/graphql-response+json, application/json', 'content-type': 'application/json'},
		body: JSON.stringify({query: document, variables}),
		signal,
	});
}

/** A status other than 2xx as graphql-request maps it, with the errors its body holds, if any; undefined for a 2xx. */
export async function statusError(response: Dispatcher.ResponseData, label: string, text?: string): Promise<ApiError | undefined> {
	const {statusCode} = response;
	if (statusCode >= 200 && statusCode < 300) {
		return undefined;
	}

	let errors: GraphqlAnswer['errors'];
	try {
		errors = (JSON.parse(text ?? (await response.body.text())) as GraphqlAnswer).errors;
	} catch {}

	return graphqlError({status: statusCode, errors, retryAfter: response.headers['retry-after']}, label);
}

/**
A GraphQL query's `data`, read whole: graphql-request parses every document to find its operation's
name, 4 ms for the rows on screen of the Pods pane (an aliased field a pod) at every poll. Failures
map as graphql-request's do.
*/
export async function postQuery<T>(query: GraphqlPost): Promise<T> {
	const {label} = query;
	let response: Dispatcher.ResponseData;
	let text: string;
	try {
		response = await sendQuery(query);
		text = await response.body.text();
	} catch (error) {
		throw fromTransportError(error, label);
	}

	const failed = await statusError(response, label, text);
	if (failed) {
		throw failed;
	}

	let answer: GraphqlAnswer<T> | undefined;
	try {
		answer = JSON.parse(text) as GraphqlAnswer<T> | undefined;
	} catch {}

	if (typeof answer !== 'object' || answer === null) {
		throw new ApiError('server', `${label}: the answer was not JSON`);
	}

	if (answer.errors?.length) {
		throw graphqlError({status: response.statusCode, errors: answer.errors}, label);
	}

	if (answer.data === undefined || answer.data === null) {
		throw new ApiError('graphql', `${label}: the service returned nothing`);
	}

	return answer.data;
}
