import type {Dispatcher, Pool} from 'undici';
import {ApiError, fromTransportError} from './errors.js';
import {graphqlError} from './graphql-errors.js';

type Query = {
	readonly pool: Pool;
	readonly url: URL;
	readonly headers: Record<string, string>;
	readonly document: string;
	readonly variables: Record<string, unknown>;
	readonly signal: AbortSignal;
	readonly label: string;
};

type Answer<T> = {readonly data?: T | null; readonly errors?: Parameters<typeof graphqlError>[0]['errors']};

/**
A GraphQL query sent as graphql-request sends it, straight through the origin's pool: graphql-request
parses every document to find its operation's name, 4 ms for the rows on screen of the Pods pane
(an aliased field a pod) at every poll. Failures map as graphql-request's do; the answer's `data`.
*/
export async function postQuery<T>({pool, url, headers, document, variables, signal, label}: Query): Promise<T> {
	let response: Dispatcher.ResponseData;
	let text: string;
	try {
		response = await pool.request({
			path: url.pathname + url.search,
			method: 'POST',
			headers: {...headers, accept: 'application/graphql-response+json, application/json', 'content-type': 'application/json'},
			body: JSON.stringify({query: document, variables}),
			signal,
		});
		text = await response.body.text();
	} catch (error) {
		throw fromTransportError(error, label);
	}

	let answer: Answer<T> | undefined;
	try {
		answer = JSON.parse(text) as Answer<T>;
	} catch {}

	const {statusCode} = response;
	if (statusCode < 200 || statusCode >= 300) {
		throw graphqlError({status: statusCode, errors: answer?.errors, retryAfter: response.headers['retry-after']}, label);
	}

	if (!answer || typeof answer !== 'object') {
		throw new ApiError('server', `${label}: the answer was not JSON`);
	}

	if (answer.errors?.length) {
		throw graphqlError({status: statusCode, errors: answer.errors}, label);
	}

	if (answer.data === undefined || answer.data === null) {
		throw new ApiError('graphql', `${label}: the service returned nothing`);
	}

	return answer.data;
}
