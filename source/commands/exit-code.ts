import {ApiError} from '../api/errors.js';

/** Exit statuses scripts can act on: 3 auth, 4 not found, 5 network or timeout, 1 anything else. */
export function exitCodeFor(error: unknown): number {
	if (error instanceof ApiError) {
		if (error.kind === 'auth') {
			return 3;
		}

		if (error.kind === 'not-found') {
			return 4;
		}

		if (error.kind === 'network' || error.kind === 'timeout') {
			return 5;
		}
	}

	return 1;
}
