import type {IncomingMessage, ServerResponse} from 'node:http';
import type {Simulator} from '../simulator.js';
import {sendError} from './respond.js';

/** Answers with an injected fault when one applies to this operation; true when it did. Injected faults are not counted as rate limiting. */
export async function applyFault(sim: Simulator, operation: string, request: IncomingMessage, response: ServerResponse): Promise<boolean> {
	const fault = sim.faults.take(operation);
	if (!fault) {
		return false;
	}

	request.resume();
	if (fault.delayMs) {
		await new Promise(resolve => {
			const timer = setTimeout(resolve, fault.delayMs);
			response.once('close', () => {
				clearTimeout(timer);
				resolve(undefined);
			});
		});
	}

	sendError(response, fault.status, `Injected fault: HTTP ${fault.status}`, fault.retryAfter === undefined ? {} : {'retry-after': String(fault.retryAfter)});
	return true;
}
