import type {ServerResponse} from 'node:http';

const titles: Readonly<Record<number, string>> = {
	400: 'Bad Request',
	401: 'Unauthorized',
	402: 'Payment Required',
	403: 'Forbidden',
	404: 'Not Found',
	405: 'Method Not Allowed',
	409: 'Conflict',
	410: 'Gone',
	413: 'Content Too Large',
	422: 'Unprocessable Entity',
	429: 'Too Many Requests',
	500: 'Internal Server Error',
	502: 'Bad Gateway',
	503: 'Service Unavailable',
	504: 'Gateway Timeout',
};

export const titleOf = (status: number) => titles[status] ?? 'Error';

/** A v2 error: `application/problem+json` with `title, status, detail` and, for validation failures, `errors`. */
export function sendProblem(
	response: ServerResponse,
	status: number,
	detail: string,
	errors?: readonly string[],
	headers: Readonly<Record<string, string>> = {},
): void {
	if (response.headersSent || response.destroyed) {
		return;
	}

	const text = JSON.stringify({title: titleOf(status), status, detail, ...(errors && errors.length > 0 ? {errors} : {})});
	response.writeHead(status, {'content-type': 'application/problem+json', 'content-length': Buffer.byteLength(text), ...headers});
	response.end(text);
}
