import type {ServerResponse} from 'node:http';

export function sendJson(response: ServerResponse, status: number, body: unknown, headers: Record<string, string> = {}): void {
	if (response.headersSent || response.destroyed) {
		return;
	}

	const text = JSON.stringify(body);
	response.writeHead(status, {
		'content-type': 'application/json',
		'content-length': Buffer.byteLength(text),
		...headers,
	});
	response.end(text);
}

/** Every error body is a JSON object with an `error` string. */
export function sendError(response: ServerResponse, status: number, message: string, headers: Record<string, string> = {}): void {
	sendJson(response, status, {error: message}, headers);
}
