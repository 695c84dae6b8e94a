/** A failure injected through `POST /__sim/faults`, for tests of how clients cope. */
export type Fault = {
	/** Operation it applies to (`run`, `status`, `health`, …, or `graphql`); every operation when absent. */
	readonly operation?: string;
	/** HTTP status to answer with, e.g. 429 or 503. */
	readonly status: number;
	/** `Retry-After` seconds to send with it. */
	readonly retryAfter?: number;
	/** Real milliseconds to hold the request before answering (a slow service). */
	readonly delayMs?: number;
	/** How many requests it hits. */
	remaining: number;
};

export class FaultInjector {
	#faults: Fault[] = [];

	add(fault: Omit<Fault, 'remaining'> & {readonly count?: number}): void {
		const {count, ...rest} = fault;
		this.#faults.push({...rest, remaining: count ?? 1});
	}

	clear(): void {
		this.#faults = [];
	}

	/** The fault to apply to this request, if any; each use counts down. */
	take(operation: string): Fault | undefined {
		const fault = this.#faults.find(candidate => candidate.remaining > 0 && (candidate.operation === undefined || candidate.operation === operation));
		if (fault) {
			fault.remaining--;
			this.#faults = this.#faults.filter(candidate => candidate.remaining > 0);
		}

		return fault;
	}
}

export function parseFault(body: unknown): (Omit<Fault, 'remaining'> & {count?: number}) | string {
	if (typeof body !== 'object' || body === null) {
		return 'fault must be a JSON object';
	}

	const {operation, status, retryAfter, delayMs, count} = body as Record<string, unknown>;
	if (typeof status !== 'number' || !Number.isInteger(status) || status < 100 || status > 599) {
		return 'status must be an HTTP status code';
	}

	for (const [name, value] of [
		['retryAfter', retryAfter],
		['delayMs', delayMs],
		['count', count],
	] as const) {
		if (value !== undefined && (typeof value !== 'number' || value < 0)) {
			return `${name} must be a non-negative number`;
		}
	}

	if (operation !== undefined && typeof operation !== 'string') {
		return 'operation must be a string';
	}

	return {operation, status, retryAfter: retryAfter as number | undefined, delayMs: delayMs as number | undefined, count: count as number | undefined};
}
