import type {IncomingMessage} from 'node:http';
import {BodyTooLargeError, readBody} from '../http/read-body.js';
import {RestError} from './rest-error.js';

const bodyLimit = 1024 * 1024;

/** The request's JSON object body: 400 when it is not JSON or not an object, 413 above 1 MB. */
export async function readJsonObject(request: IncomingMessage): Promise<Record<string, unknown>> {
	let text: string;
	try {
		text = await readBody(request, bodyLimit);
	} catch (error) {
		if (error instanceof BodyTooLargeError) {
			throw new RestError(413, error.message, undefined, {connection: 'close'});
		}

		throw error;
	}

	let body: unknown;
	try {
		body = JSON.parse(text);
	} catch {
		throw new RestError(400, 'request body is not valid JSON');
	}

	if (typeof body !== 'object' || body === null || Array.isArray(body)) {
		throw new RestError(400, 'request body must be a JSON object');
	}

	return body as Record<string, unknown>;
}
