import type {IncomingMessage} from 'node:http';

export class BodyTooLargeError extends Error {
	override readonly name = 'BodyTooLargeError';
	constructor(readonly limit: number) {
		super(`Request body exceeds the ${limit / 1024 / 1024} MB limit`);
	}
}

/** Reads a request body as UTF-8, refusing (without buffering the rest) once it passes `limit` bytes. */
export async function readBody(request: IncomingMessage, limit: number): Promise<string> {
	const declared = Number(request.headers['content-length']);
	if (Number.isFinite(declared) && declared > limit) {
		throw new BodyTooLargeError(limit);
	}

	const chunks: Buffer[] = [];
	let size = 0;
	for await (const chunk of request) {
		const buffer = chunk as Buffer;
		size += buffer.length;
		if (size > limit) {
			throw new BodyTooLargeError(limit);
		}

		chunks.push(buffer);
	}

	return Buffer.concat(chunks).toString('utf8');
}
