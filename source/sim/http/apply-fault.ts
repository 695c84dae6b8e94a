import type {IncomingMessage, ServerResponse} from 'node:http';
import type {Fault} from '../faults.js';
import type {Simulator} from '../simulator.js';
import {sendError} from './respond.js';

async function hold(response: ServerResponse, ms: number): Promise<void> {
	if (ms <= 0) {
		return;
	}

	await new Promise(resolve => {
		const timer = setTimeout(resolve, ms);
		response.once('close', () => {
			clearTimeout(timer);
			resolve(undefined);
		});
	});
}

/** Makes the response trickle its body out in pieces over `ms`. */
function trickle(response: ServerResponse, ms: number): void {
	const end = response.end.bind(response);
	response.end = ((chunk?: unknown, ...rest: unknown[]) => {
		const body = typeof chunk === 'string' || Buffer.isBuffer(chunk) ? Buffer.from(chunk) : Buffer.alloc(0);
		const pieces = Math.max(1, Math.min(10, body.length));
		const size = Math.ceil(body.length / pieces);
		let sent = 0;
		const next = () => {
			if (response.destroyed) {
				return;
			}

			if (sent >= body.length) {
				end(...(rest as []));
				return;
			}

			response.write(body.subarray(sent, sent + size));
			sent += size;
			setTimeout(next, ms / pieces);
		};

		next();
		return response;
	}) as typeof response.end;
}

/**
Applies an injected fault to this request, if one matches. True when the fault answered it (the
route must do nothing more); false when the request goes on to be served (no fault, `latency`,
`slow-body`). Injected faults are not counted as rate limiting.
*/
export async function applyFault(
	sim: Simulator,
	operation: string,
	request: IncomingMessage,
	response: ServerResponse,
	endpoint?: string,
	/** How this API answers an injected status (REST v2: problem+json); the job API's `{error}` when absent. */
	answer: (status: number, detail: string, headers: Record<string, string>) => void = (status, detail, headers) => {
		sendError(response, status, detail, headers);
	},
): Promise<boolean> {
	const fault: Fault | undefined = sim.faults.take(operation, endpoint);
	if (!fault) {
		return false;
	}

	if (fault.kind === 'slow-body') {
		trickle(response, fault.delayMs ?? 2000);
		return false;
	}

	if (fault.kind === 'latency') {
		await hold(response, sim.faults.holdMs(fault));
		return false;
	}

	request.resume();
	await hold(response, sim.faults.holdMs(fault));
	switch (fault.kind) {
		case 'reset': {
			response.socket?.destroy();
			return true;
		}

		case 'malformed': {
			response.writeHead(200, {'content-type': 'application/json'});
			response.end('{"id": "sim-malformed", "status": ');
			return true;
		}

		case 'truncated': {
			const body = '{"id": "sim-truncated", "status": "IN_QUEUE", "output": "this answer stops short"}';
			response.writeHead(200, {'content-type': 'application/json', 'content-length': String(body.length)});
			response.write(body.slice(0, 20));
			setTimeout(() => {
				response.socket?.destroy();
			}, 20);
			return true;
		}

		case 'edge': {
			response.writeHead(fault.status ?? 502, {'content-length': '0', ...(fault.retryAfter === undefined ? {} : {'retry-after': String(fault.retryAfter)})});
			response.end();
			return true;
		}

		default: {
			const status = fault.status ?? 503;
			answer(status, `Injected fault: HTTP ${status}`, fault.retryAfter === undefined ? {} : {'retry-after': String(fault.retryAfter)});
			return true;
		}
	}
}
