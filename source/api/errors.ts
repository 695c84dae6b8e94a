/** What went wrong, in terms the UI can explain and the scheduler can act on. */
export type ApiErrorKind =
	| 'auth' // 401: the key is wrong or lacks permission
	| 'forbidden' // 403 on one route (REST v2): the key is good but its role may not do this; the rest goes on
	| 'not-found' // 404: unknown endpoint or job (or expired)
	| 'rate-limited' // 429: over the service's limits; see retryAfterMs
	| 'invalid' // 400, 413 and other 4xx: the service said what is wrong
	| 'server' // 5xx
	| 'network' // no connection, reset, DNS
	| 'timeout' // no answer in time
	| 'graphql' // a GraphQL resolver error (errors[0].message)
	| 'aborted'; // the caller stopped waiting

export class ApiError extends Error {
	override readonly name = 'ApiError';
	readonly kind: ApiErrorKind;
	readonly status: number | undefined;
	/** From `Retry-After`, when the service sent one. */
	readonly retryAfterMs: number | undefined;

	constructor(kind: ApiErrorKind, message: string, options: {status?: number; retryAfterMs?: number; cause?: unknown} = {}) {
		super(message, {cause: options.cause});
		this.kind = kind;
		this.status = options.status;
		this.retryAfterMs = options.retryAfterMs;
	}
}

/** Reads `Retry-After` (seconds or an HTTP date) as milliseconds. */
export function parseRetryAfter(header: string | string[] | undefined | null, now = Date.now()): number | undefined {
	const value = Array.isArray(header) ? header[0] : header;
	if (!value) {
		return undefined;
	}

	const seconds = Number(value);
	if (Number.isFinite(seconds) && seconds >= 0) {
		return seconds * 1000;
	}

	const date = Date.parse(value);
	return Number.isNaN(date) ? undefined : Math.max(0, date - now);
}

export function kindForStatus(status: number): ApiErrorKind {
	if (status === 401 || status === 403) {
		return 'auth';
	}

	if (status === 404) {
		return 'not-found';
	}

	if (status === 429) {
		return 'rate-limited';
	}

	return status >= 500 ? 'server' : 'invalid';
}

const undiciTimeouts = new Set(['UND_ERR_CONNECT_TIMEOUT', 'UND_ERR_HEADERS_TIMEOUT', 'UND_ERR_BODY_TIMEOUT']);
/** Failures before a connection existed: the request cannot have reached the service. */
const connectFailures = new Set([
	'ECONNREFUSED',
	'ENOTFOUND',
	'EAI_AGAIN',
	'EHOSTUNREACH',
	'ENETUNREACH',
	'UND_ERR_CONNECT_TIMEOUT',
	'UND_ERR_SOCKET_CLOSED_BEFORE_CONNECT',
]);

/** The code of a transport error (undici puts it on the error or its cause). */
function transportCode(error: unknown): string | undefined {
	return (error as {code?: string} | undefined)?.code ?? (error as {cause?: {code?: string}} | undefined)?.cause?.code;
}

/**
Whether a failed request may still have been carried out by the service: a timeout, a reset or a
5xx after sending can hide a success; a refused connection or a clear 4xx cannot. A write that
fails like this is never sent again: the user is told it may have happened.
*/
export function mayHaveHappened(error: unknown): boolean {
	if (!(error instanceof ApiError)) {
		return true;
	}

	if (error.kind === 'timeout') {
		return transportCode(error.cause) !== 'UND_ERR_CONNECT_TIMEOUT';
	}

	if (error.kind === 'network') {
		const code = transportCode(error.cause);
		return code === undefined || !connectFailures.has(code);
	}

	return error.kind === 'server' || error.kind === 'aborted';
}

/** Turns a thrown transport error (undici, fetch, abort) into an ApiError. */
export function fromTransportError(error: unknown, what: string): ApiError {
	if (error instanceof ApiError) {
		return error;
	}

	const code = transportCode(error);
	const name = (error as {name?: string} | undefined)?.name;
	if (name === 'TimeoutError' || (code && undiciTimeouts.has(code))) {
		return new ApiError('timeout', `${what}: no answer in time`, {cause: error});
	}

	if (name === 'AbortError' || code === 'UND_ERR_ABORTED') {
		return new ApiError('aborted', `${what}: cancelled`, {cause: error});
	}

	return new ApiError('network', `${what}: ${code ?? (error instanceof Error ? error.message : 'network error')}`, {cause: error});
}

/** The HTTP status of a refusal of the key itself (401, 403), or undefined for any other failure. */
export function keyRefusalStatus(error: unknown): number | undefined {
	return error instanceof ApiError && error.kind === 'auth' ? (error.status ?? 401) : undefined;
}

/** A short, key-free line for the UI and for stderr. */
export function describeError(error: unknown): string {
	if (error instanceof ApiError) {
		const labels: Record<ApiErrorKind, string> = {
			auth: 'authentication failed (check the API key)',
			forbidden: 'no permission',
			'not-found': 'not found',
			'rate-limited': 'rate limited',
			invalid: 'rejected',
			server: 'service error',
			network: 'network error',
			timeout: 'timed out',
			graphql: 'GraphQL error',
			aborted: 'cancelled',
		};
		return `${labels[error.kind]}: ${error.message}`;
	}

	return error instanceof Error ? error.message : String(error);
}
