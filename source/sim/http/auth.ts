import {createHash, timingSafeEqual} from 'node:crypto';
import type {IncomingMessage} from 'node:http';

/** The key a request presents: `Authorization: Bearer KEY`, a bare `Authorization: KEY`, or (GraphQL) `?api_key=`. */
export function presentedKey(request: IncomingMessage, url: URL, allowQuery: boolean): string | undefined {
	const header = request.headers.authorization?.trim();
	if (header) {
		const bearer = /^bearer\s+(\S+)$/i.exec(header);
		return bearer ? bearer[1] : header;
	}

	return allowQuery ? (url.searchParams.get('api_key') ?? undefined) : undefined;
}

export function isValidKey(presented: string | undefined, expected: string): boolean {
	if (presented === undefined) {
		return false;
	}

	// Digests first: equal lengths for timingSafeEqual, so not even the key's length leaks.
	return timingSafeEqual(createHash('sha256').update(presented).digest(), createHash('sha256').update(expected).digest());
}
