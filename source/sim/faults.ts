import {crashCauses, isCrashCause, type CrashCause} from './logs/crash-causes.js';

/**
What an injected fault does to a request:
- `status`: answers with that HTTP status (and `Retry-After` when given) instead of serving it;
- `edge`: the same with an empty body, as an edge proxy answers (429, 403, 502);
- `reset`: reads the request, then drops the connection (the client cannot know if it happened);
- `malformed`: answers 200 with a body that is not JSON;
- `truncated`: answers 200 promising more bytes than it sends, then drops the connection;
- `latency`: holds the request `delayMs` (+ up to `jitterMs`), then serves it normally;
- `slow-body`: serves it normally, but trickles the body out over `delayMs`.
And one that acts on the fleet, not on requests, until cleared:
- `crash-loop`: the endpoint's containers die at start (`cause`: `disk-full`, `oom`, `import-error`), while the
  service still shows its workers RUNNING or THROTTLED and none unhealthy.
*/
export const faultKinds = ['status', 'reset', 'malformed', 'truncated', 'latency', 'slow-body', 'edge', 'crash-loop'] as const;
export type FaultKind = (typeof faultKinds)[number];

/** A failure injected with `podtop sim --faults` or `POST /__sim/faults`, for tests of how clients cope. */
export type Fault = {
	readonly kind: FaultKind;
	/** Operation it applies to (`run`, `status`, `stream`, `health`, `compat`, …, `graphql`, or REST v2's `v2` and `v2:pods`, `v2:serverless`, `v2:catalog`, …); every one when absent. */
	readonly operation?: string;
	/** Endpoint id it applies to (job API only); every endpoint when absent. */
	readonly endpoint?: string;
	/** For `status`: the HTTP status, e.g. 429 or 503. */
	readonly status?: number;
	/** `Retry-After` seconds to send with a `status` fault. */
	readonly retryAfter?: number;
	/** Real milliseconds to hold the request first (every kind), or to trickle the body over (`slow-body`). */
	readonly delayMs?: number;
	/** Up to this many more milliseconds, at random. */
	readonly jitterMs?: number;
	/** For `crash-loop`: why the containers die. */
	readonly cause?: CrashCause;
	/** The share of matching requests it hits (0–1); every one when absent. */
	readonly share?: number;
	/** How many more requests it hits; without a count, a fault with a share lasts until cleared, one without hits once. */
	remaining: number;
};

export type FaultSpec = Omit<Fault, 'remaining'> & {readonly count?: number};

export class FaultInjector {
	#faults: Fault[] = [];
	readonly #random: () => number;

	constructor(random: () => number = Math.random) {
		this.#random = random;
	}

	add(spec: FaultSpec): void {
		const {count, ...rest} = spec;
		const lasting = spec.share !== undefined || spec.kind === 'crash-loop';
		this.#faults.push({...rest, remaining: count ?? (lasting ? Number.POSITIVE_INFINITY : 1)});
	}

	clear(): void {
		this.#faults = [];
	}

	list(): readonly Fault[] {
		return this.#faults;
	}

	/** The fault to apply to this request, if any; each hit counts down. */
	take(operation: string, endpoint?: string): Fault | undefined {
		const fault = this.#faults.find(
			candidate =>
				candidate.kind !== 'crash-loop' &&
				candidate.remaining > 0 &&
				(candidate.operation === undefined || candidate.operation === operation || operation.startsWith(`${candidate.operation}:`)) &&
				(candidate.endpoint === undefined || candidate.endpoint === endpoint),
		);
		if (!fault || (fault.share !== undefined && this.#random() >= fault.share)) {
			return undefined;
		}

		fault.remaining--;
		this.#faults = this.#faults.filter(candidate => candidate.remaining > 0);
		return fault;
	}

	/** Why this endpoint's containers crash, while a `crash-loop` fault for it (or for every endpoint) is in force. */
	crashCauseOf(endpoint: string): CrashCause | undefined {
		return this.#faults.find(fault => fault.kind === 'crash-loop' && (fault.endpoint === undefined || fault.endpoint === endpoint))?.cause;
	}

	/** The hold before a fault acts: its delay plus its jitter. */
	holdMs(fault: Fault): number {
		return (fault.delayMs ?? 0) + (fault.jitterMs ? this.#random() * fault.jitterMs : 0);
	}
}

const isRecord = (value: unknown): value is Record<string, unknown> => typeof value === 'object' && value !== null && !Array.isArray(value);

/** One fault from JSON, or why it is refused. `{status}` alone is a `status` fault; `{delayMs}` alone a `latency` one. */
export function parseFault(body: unknown): FaultSpec | string {
	if (!isRecord(body)) {
		return 'a fault is a JSON object such as {"kind": "status", "status": 503, "share": 0.1}';
	}

	const {kind, operation, endpoint, status, retryAfter, delayMs, jitterMs, share, count, cause} = body;
	const resolved = kind ?? (status === undefined ? (delayMs === undefined ? undefined : 'latency') : 'status');
	if (typeof resolved !== 'string' || !(faultKinds as readonly string[]).includes(resolved)) {
		return `kind must be one of ${faultKinds.join(', ')}`;
	}

	if ((resolved === 'status' || resolved === 'edge') && (typeof status !== 'number' || !Number.isInteger(status) || status < 100 || status > 599)) {
		return 'a status fault needs status: an HTTP status code';
	}

	for (const [name, value] of [
		['retryAfter', retryAfter],
		['delayMs', delayMs],
		['jitterMs', jitterMs],
		['count', count],
	] as const) {
		if (value !== undefined && (typeof value !== 'number' || !Number.isFinite(value) || value < 0)) {
			return `${name} must be a non-negative number`;
		}
	}

	if (resolved === 'crash-loop' && cause !== undefined && !isCrashCause(cause)) {
		return `cause must be one of ${crashCauses.join(', ')}`;
	}

	if (share !== undefined && (typeof share !== 'number' || share < 0 || share > 1)) {
		return 'share must be a number from 0 to 1';
	}

	for (const [name, value] of [
		['operation', operation],
		['endpoint', endpoint],
	] as const) {
		if (value !== undefined && typeof value !== 'string') {
			return `${name} must be a string`;
		}
	}

	return {
		kind: resolved as FaultKind,
		...(operation === undefined ? {} : {operation: operation as string}),
		...(endpoint === undefined ? {} : {endpoint: endpoint as string}),
		...(status === undefined ? {} : {status: status as number}),
		...(retryAfter === undefined ? {} : {retryAfter: retryAfter as number}),
		...(delayMs === undefined ? {} : {delayMs: delayMs as number}),
		...(jitterMs === undefined ? {} : {jitterMs: jitterMs as number}),
		...(share === undefined ? {} : {share}),
		...(count === undefined ? {} : {count: count as number}),
		...(resolved === 'crash-loop' ? {cause: (cause as CrashCause | undefined) ?? 'disk-full'} : {}),
	};
}

/** One fault or a list of them (the `--faults` flag and `POST /__sim/faults` take either). */
export function parseFaults(body: unknown): FaultSpec[] | string {
	const list = Array.isArray(body) ? body : [body];
	const parsed: FaultSpec[] = [];
	for (const [index, item] of list.entries()) {
		const fault = parseFault(item);
		if (typeof fault === 'string') {
			return list.length > 1 ? `fault ${index + 1}: ${fault}` : fault;
		}

		parsed.push(fault);
	}

	return parsed;
}
