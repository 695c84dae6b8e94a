import {Headers, Response} from 'undici';

/** An error's problem+json is a few hundred bytes; past this the rest is not read (the detail is cut, or the body is not JSON). */
export const maxProblemBytes = 16 * 1024;
/** A 2xx body past this fails as it streams in: 10,000 pods are about 15 MB in v2's JSON. */
export const maxAnswerBytes = 64 * 1024 * 1024;

/** A body that errors once it has carried more than `limit` bytes. */
function limitedStream(body: ReadableStream<Uint8Array>, limit: number): ReadableStream<Uint8Array> {
	let carried = 0;
	return body.pipeThrough(
		new TransformStream<Uint8Array, Uint8Array>({
			transform(chunk, controller) {
				carried += chunk.byteLength;
				if (carried > limit) {
					controller.error(new RangeError(`the answer is over ${limit} bytes`));
					return;
				}

				controller.enqueue(chunk);
			},
		}),
	);
}

/** The first `limit` bytes of a body, the rest let go. */
async function readPrefix(body: ReadableStream<Uint8Array>, limit: number): Promise<Uint8Array> {
	const reader = body.getReader();
	const parts: Uint8Array[] = [];
	let length = 0;
	try {
		while (length < limit) {
			// eslint-disable-next-line no-await-in-loop
			const {done, value} = await reader.read();
			if (done) {
				break;
			}

			parts.push(value);
			length += value.byteLength;
		}
	} finally {
		void reader.cancel().catch(() => undefined);
	}

	return Buffer.concat(parts).subarray(0, limit);
}

/**
An answer whose body podtop will hold at most so much of: an error's (problem+json, or an edge
proxy's page) is read now, cut at `maxProblemBytes`; a success's streams on, failing past
`maxAnswerBytes`. A body that breaks off while read (a truncated answer) fails as undici's does.
*/
export async function boundedResponse(response: Response): Promise<Response> {
	if (!response.body) {
		return response;
	}

	const init = {status: response.status, statusText: response.statusText, headers: response.headers};
	if (!response.ok) {
		let prefix: Uint8Array;
		try {
			prefix = await readPrefix(response.body as ReadableStream<Uint8Array>, maxProblemBytes);
		} catch {
			// A problem body that breaks off says nothing more than its status.
			prefix = new Uint8Array();
		}

		const headers = new Headers(response.headers);
		headers.delete('content-length');
		return new Response(prefix.byteLength === 0 ? null : prefix, {...init, headers});
	}

	return new Response(limitedStream(response.body as ReadableStream<Uint8Array>, maxAnswerBytes), init);
}
