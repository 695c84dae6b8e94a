import {ServiceError} from '../service-error.js';

/** A v2 error answer: thrown by a route, sent as `application/problem+json` by the dispatcher. */
export class RestError extends Error {
	override readonly name = 'RestError';

	constructor(
		readonly status: number,
		readonly detail: string,
		/** Individual validation failures (422 lists them). */
		readonly errors?: readonly string[],
		readonly headers: Readonly<Record<string, string>> = {},
	) {
		super(detail);
	}
}

/** The fleet's own errors (shared with GraphQL) as v2 statuses: unknown id 404, wrong state 409, the rest (no capacity too) 400. */
export function toRestError(error: unknown): RestError | undefined {
	if (error instanceof RestError) {
		return error;
	}

	if (!(error instanceof ServiceError)) {
		return undefined;
	}

	switch (error.extensions.code) {
		case 'NOT_FOUND': {
			return new RestError(404, error.message);
		}

		case 'CONFLICT': {
			return new RestError(409, error.message);
		}

		default: {
			return new RestError(400, error.message);
		}
	}
}

/** 422 with the failures listed, as the service's request validation answers. */
export function invalid(errors: readonly string[]): RestError {
	return new RestError(422, 'Request validation failed.', errors);
}
