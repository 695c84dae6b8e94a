import {Agent, interceptors, type Dispatcher} from 'undici';
import {ApiError, fromTransportError, kindForStatus} from '../api/errors.js';
import {linkedSignal} from '../lib/linked-signal.js';
import type {ImagePolicy} from './address-policy.js';
import {guardedConnector} from './guarded-connector.js';
import {ImageError, imageByteLimit, megabytes} from './image-error.js';

export type FetchImageOptions = {
	readonly signal?: AbortSignal;
	/** Refuse more bytes than this (default 20 MB), before reading when the length is announced, else as they stream in. */
	readonly limit?: number;
	readonly connectMs?: number;
	/** Between body chunks, and waiting for the headers. */
	readonly idleMs?: number;
	/** The whole exchange, however slowly the bytes trickle. */
	readonly totalMs?: number;
	/** Where links may lead besides the public internet (nowhere else by default). */
	readonly policy?: ImagePolicy;
};

/** A link as errors name it: scheme, host and path; the query (a signed link's signature) is left out. */
export function linkLabel(url: URL): string {
	return `${url.protocol}//${url.host}${url.pathname}`;
}

/**
The bytes behind an image link: http(s) only, sent with no key and no cookie (the service's image
links are public), following up to three redirects, with explicit timeouts, and never more than
`limit` bytes held: a longer body is cut off and refused. Only public addresses are connected to,
checked on the address connected to and at every redirect, unless `policy` allows more (see
guarded-connector.ts). Transport failures are `ApiError`s (network, timeout, not-found for an
expired link); a body over the limit or an address refused an `ImageError`.
*/
export async function fetchImage(link: string, options: FetchImageOptions = {}): Promise<{bytes: Buffer; contentType: string | undefined}> {
	const {signal, limit = imageByteLimit, connectMs = 5000, idleMs = 15_000, totalMs = 60_000, policy = {}} = options;
	let url: URL;
	try {
		url = new URL(link);
	} catch {
		throw new ApiError('invalid', 'the image link is not a URL');
	}

	if (url.protocol !== 'http:' && url.protocol !== 'https:') {
		throw new ApiError('invalid', `the image link is a ${url.protocol.slice(0, -1)} link; podtop fetches only http and https links`);
	}

	const label = `image ${linkLabel(url)}`;
	// The loader's signal lives as long as it does: linked for this fetch alone, and let go after it.
	const total = linkedSignal(signal, totalMs);
	const agent = new Agent({connect: guardedConnector(policy, connectMs), headersTimeout: idleMs, bodyTimeout: idleMs, connections: 1});
	const dispatcher: Dispatcher = agent.compose(interceptors.redirect({maxRedirections: 3}));
	try {
		let response: Dispatcher.ResponseData;
		try {
			response = await dispatcher.request({
				origin: url.origin,
				path: `${url.pathname}${url.search}`,
				method: 'GET',
				headers: {accept: 'image/*'},
				signal: total.signal,
			});
		} catch (error) {
			throw error instanceof ImageError ? error : fromTransportError(error, label);
		}

		const {statusCode, headers, body} = response;
		if (statusCode < 200 || statusCode >= 300) {
			discard(body);
			// A signed link that has expired answers 403 (S3) or 404: no key would help, the result is gone.
			const expired = statusCode === 404 || statusCode === 403 || statusCode === 410;
			throw new ApiError(
				expired ? 'not-found' : kindForStatus(statusCode),
				`${label}: HTTP ${statusCode}${expired ? " (an image link lives only as long as the job's result)" : ''}`,
				{
					status: statusCode,
				},
			);
		}

		const announced = Number(headers['content-length']);
		if (Number.isFinite(announced) && announced > limit) {
			discard(body);
			throw new ImageError('too-large', `the image is ${megabytes(announced)}, over podtop's ${megabytes(limit)} limit; not fetched`);
		}

		const chunks: Buffer[] = [];
		let size = 0;
		try {
			for await (const chunk of body as AsyncIterable<Buffer>) {
				size += chunk.length;
				if (size > limit) {
					discard(body);
					throw new ImageError('too-large', `the image is over podtop's ${megabytes(limit)} limit; the download was stopped there`);
				}

				chunks.push(chunk);
			}
		} catch (error) {
			throw error instanceof ImageError ? error : fromTransportError(error, label);
		}

		const type = headers['content-type'];
		return {bytes: Buffer.concat(chunks, size), contentType: typeof type === 'string' ? type : undefined};
	} finally {
		total.done();
		await agent.destroy();
	}
}

/** Lets go of a body not to be read: the connection closes, and the abort it causes is no error to report. */
function discard(body: Dispatcher.ResponseData['body']): void {
	body.on('error', () => undefined);
	body.destroy();
}

/** The bytes of an image carried as base64 (a field or a `data:` URL), refused over `limit` before decoding. */
export function decodeBase64Image(base64: string, limit = imageByteLimit): Buffer {
	const compact = base64.replaceAll(/\s+/g, '');
	const size = Math.floor((compact.length * 3) / 4);
	if (size > limit) {
		throw new ImageError('too-large', `the image is ${megabytes(size)}, over podtop's ${megabytes(limit)} limit`);
	}

	if (!/^[\w+/-]*={0,2}$/.test(compact)) {
		throw new ImageError('broken', "the image's base64 has characters base64 does not use");
	}

	return Buffer.from(compact, compact.includes('-') || compact.includes('_') ? 'base64url' : 'base64');
}
