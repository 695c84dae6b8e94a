import {withLinkedSignal} from '../../lib/linked-signal.js';
import type {Pools} from '../pools.js';
import {malformedAnswer, restError, thrownError} from './rest-errors.js';

/** What every openapi-fetch call resolves to. */
type Outcome<T> = {readonly data?: T; readonly error?: unknown; readonly response: Response};

export type RestCall = <T, R>(
	label: string,
	signal: AbortSignal | undefined,
	send: (limited: AbortSignal) => Promise<Outcome<T>>,
	read: (data: T) => R | Promise<R>,
) => Promise<R>;

/**
One v2 request, start to end: within the caller's signal and the pools' time limits (headers and body),
a status other than 2xx as podtop's ApiError (see restError), an answer that is not what the spec
says (not JSON, cut short, a field missing) as a malformed answer, never a crash. `read` maps the answer
while the time limit still runs (a streamed list is read in it).
*/
export function createRestCall(pools: Pools, apiKey: string): RestCall {
	const limitMs = pools.timeouts.headersMs + pools.timeouts.bodyMs;
	return async (label, signal, send, read) =>
		withLinkedSignal(signal, limitMs, async limited => {
			let outcome: Outcome<unknown>;
			try {
				outcome = await send(limited);
			} catch (error) {
				throw thrownError(error, label);
			}

			const {response} = outcome;
			if (!response.ok) {
				throw restError({status: response.status, body: outcome.error, retryAfter: response.headers.get('retry-after')}, label, apiKey);
			}

			try {
				return await read(outcome.data as never);
			} catch (error) {
				throw error instanceof TypeError && !('code' in error || 'cause' in error) ? malformedAnswer(label, error) : thrownError(error, label);
			}
		});
}
