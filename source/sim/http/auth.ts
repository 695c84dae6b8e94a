import {timingSafeEqual} from 'node:crypto';
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

	const a = Buffer.from(presented);
	const b = Buffer.from(expected);
	return a.length === b.length && timingSafeEqual(a, b);
}
