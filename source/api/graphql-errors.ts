import {ApiError, kindForStatus, parseRetryAfter} from './errors.js';

/** What a GraphQL answer that failed says: its HTTP status, its `errors`, its `Retry-After`. */
export type GraphqlFailure = {
	readonly status: number;
	readonly errors?: ReadonlyArray<{readonly message?: unknown; readonly extensions?: unknown}> | undefined;
	readonly retryAfter?: string | string[] | null | undefined;
};

/** HTTP statuses by kind; a resolver's error by `errors[0].message` (its NOT_FOUND is a missing pod or endpoint: exit 4, not a refusal). */
export function graphqlError({status, errors, retryAfter}: GraphqlFailure, label: string): ApiError {
	const message = typeof errors?.[0]?.message === 'string' ? errors[0].message : undefined;
	if (status >= 200 && status < 300 && errors?.length) {
		const code = (errors[0]!.extensions as {code?: unknown} | undefined)?.code;
		return new ApiError(code === 'NOT_FOUND' ? 'not-found' : 'graphql', `${label}: ${message ?? 'the service returned an error'}`, {status});
	}

	const detail = status === 401 || status === 429 ? `HTTP ${status}` : (message ?? `HTTP ${status}`);
	return new ApiError(kindForStatus(status), `${label}: ${detail}`, {status, retryAfterMs: parseRetryAfter(retryAfter)});
}
