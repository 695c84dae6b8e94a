import {sanitizeLine} from '../../format/sanitize.js';
import {ApiError, fromTransportError, kindForStatus, parseRetryAfter} from '../errors.js';
import {redact} from '../redact.js';

/** The longest `detail` kept, and the most `errors` (each cut as long), of a problem+json. */
const maxDetailChars = 300;
const maxErrors = 5;
const maxErrorChars = 160;

const cut = (text: string, limit: number) => (text.length > limit ? `${text.slice(0, limit - 1)}…` : text);

/** Service text made safe to show: one line, inert, bounded, without the key even if the service echoed it. */
const shown = (text: string, limit: number, apiKey: string) => cut(sanitizeLine(redact(text, apiKey)), limit);

/** What a problem+json body holds that podtop shows: its `detail` and `errors`, or nothing when the body is not one (an edge proxy's empty answer). */
function problemOf(body: unknown): {detail?: string; errors: string[]} {
	if (typeof body !== 'object' || body === null) {
		return {errors: []};
	}

	const {detail, errors} = body as {detail?: unknown; errors?: unknown};
	return {
		detail: typeof detail === 'string' && detail.trim() !== '' ? detail : undefined,
		errors: Array.isArray(errors) ? errors.filter((item): item is string => typeof item === 'string') : [],
	};
}

/**
A v2 answer that failed, as podtop's ApiError: 401 is a refusal of the key (`auth`, said as GraphQL's
401 is: `HTTP 401`), 403 the key's role lacking this route (`forbidden`: that pane says so, the rest goes
on), 404 not found, 429 rate-limited with its `Retry-After`, 5xx server, and 400/402/409/422 `invalid`
with the service's `detail` and first `errors`, sanitised and cut. Any status, any body (empty, not
JSON, cut short) gives an ApiError.
*/
export function restError({status, body, retryAfter}: {status: number; body: unknown; retryAfter?: string | null}, label: string, apiKey: string): ApiError {
	const {detail, errors} = problemOf(body);
	const said = [
		detail === undefined ? `HTTP ${status}` : shown(detail, maxDetailChars, apiKey),
		...errors.slice(0, maxErrors).map(error => shown(error, maxErrorChars, apiKey)),
		...(errors.length > maxErrors ? [`and ${errors.length - maxErrors} more`] : []),
	].join('; ');
	const options = {status, retryAfterMs: parseRetryAfter(retryAfter)};
	if (status === 401) {
		return new ApiError('auth', `${label}: HTTP 401`, options);
	}

	if (status === 403) {
		return new ApiError('forbidden', `${label}: no permission (HTTP 403)${detail === undefined ? '' : `: ${said}`}`, options);
	}

	if (status >= 300 && status < 400) {
		return new ApiError('server', `${label}: the service answered a redirect (HTTP ${status}), which podtop does not follow`, options);
	}

	return new ApiError(kindForStatus(status), `${label}: ${said}`, options);
}

/** A 2xx whose body is not what the spec says (not JSON, cut short, not the shape): the service's fault, said without the body. */
export function malformedAnswer(label: string, cause?: unknown): ApiError {
	return new ApiError('server', `${label}: the answer was not what the service sends`, {cause});
}

/** Whatever a request threw, as an ApiError: a body that was not JSON is a malformed answer, the rest as transport errors. */
export function thrownError(error: unknown, label: string): ApiError {
	if (error instanceof SyntaxError) {
		return malformedAnswer(label, error);
	}

	if (error instanceof RangeError) {
		return new ApiError('server', `${label}: ${error.message}`, {cause: error});
	}

	return fromTransportError(error, label);
}
