import {ApiError, type ApiErrorKind} from '../api/errors.js';
import type {PerformOutcome} from '../engine/perform.js';
import {UsageError} from '../lib/usage-error.js';

/** The one exit-status table of every verb. */
export const exitCodes = {ok: 0, failed: 1, usage: 2, auth: 3, notFound: 4, network: 5, readOnly: 6} as const;

export function exitCodeForKind(kind: ApiErrorKind | undefined): number {
	if (kind === 'auth' || kind === 'forbidden') {
		return exitCodes.auth;
	}

	if (kind === 'not-found') {
		return exitCodes.notFound;
	}

	if (kind === 'network' || kind === 'timeout') {
		return exitCodes.network;
	}

	return exitCodes.failed;
}

/** 2 usage, 3 auth (a key refused, or without permission for this), 4 not found, 5 network or timeout, 1 anything else (the service refused, a job failed). */
export function exitCodeFor(error: unknown): number {
	if (error instanceof UsageError) {
		return exitCodes.usage;
	}

	const kind = error instanceof ApiError ? error.kind : (error as {kind?: ApiErrorKind} | undefined)?.kind;
	return exitCodeForKind(kind);
}

/** A write's exit status: read-only 6, may-have-happened 5 (network), refused by kind. */
export function exitCodeForWrite(outcome: PerformOutcome, error: unknown): number {
	if (outcome === 'ok') {
		return exitCodes.ok;
	}

	if (outcome === 'read-only') {
		return exitCodes.readOnly;
	}

	if (outcome === 'ambiguous') {
		return error instanceof ApiError && (error.kind === 'server' || error.kind === 'aborted') ? exitCodes.failed : exitCodes.network;
	}

	return exitCodeFor(error);
}
