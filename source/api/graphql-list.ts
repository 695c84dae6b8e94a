import type {Dispatcher, Pool} from 'undici';
import {ApiError, fromTransportError} from './errors.js';
import {graphqlError} from './graphql-errors.js';
import {type GraphqlAnswer, sendQuery, statusError} from './graphql-post.js';
import {parseSplitJson} from './json-stream.js';

type ListQuery = {
	readonly pool: Pool;
	readonly url: URL;
	readonly headers: Record<string, string>;
	readonly document: string;
	/** Where the list is in the answer's `data`, e.g. ['myself', 'pods']. */
	readonly path: readonly string[];
	readonly signal: AbortSignal;
	readonly label: string;
};

const field = (value: unknown, key: string): unknown => (typeof value === 'object' && value !== null ? (value as Record<string, unknown>)[key] : undefined);

/**
A GraphQL query whose answer is one long list (10,000 pods): sent as graphql-request would send it,
but read as it streams in, each element parsed on its own, so the answer is never one string nor
one buffer. Failures map as graphql-request's do; a list the answer does not hold is empty.
*/
export async function queryList<T>({pool, url, headers, document, path, signal, label}: ListQuery): Promise<T[]> {
	let response: Dispatcher.ResponseData;
	let answer: GraphqlAnswer;
	let elements: unknown[];
	try {
		response = await sendQuery({pool, url, headers, document, signal, label});
		const failed = await statusError(response, label);
		if (failed) {
			throw failed;
		}

		({document: answer, elements} = (await parseSplitJson(response.body, ['data', ...path])) as {document: GraphqlAnswer; elements: unknown[]});
	} catch (error) {
		if (error instanceof SyntaxError) {
			throw new ApiError('server', `${label}: the answer was not JSON`, {cause: error});
		}

		throw fromTransportError(error, label);
	}

	if (answer.errors?.length) {
		throw graphqlError({status: response.statusCode, errors: answer.errors}, label);
	}

	const list = path.reduce<unknown>((value, key) => field(value, key), answer.data);
	return Array.isArray(list) ? list.map(item => (typeof item === 'number' ? elements[item] : item) as T) : [];
}
