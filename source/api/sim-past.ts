import type {Pool} from 'undici';
import type {EndpointRecord, ServerlessDiscount} from '../model/endpoint.js';
import type {GpuTypeRecord} from '../model/gpu-type.js';
import type {PodRecord} from '../model/pod.js';
import {ApiError, fromTransportError, kindForStatus} from './errors.js';
import type {Health} from './job-types.js';

/**
One moment of the simulator's simulated past, as a client polling it would have seen it: the answers
of the client's own queries (`endpointsAndDiscount`, `pods`, `gpuTypes`) and each endpoint's `/health`.
A kind not polled at that moment is left out (the endpoint list once a minute, GPU types every 30 s).
*/
export type PastObservation = {
	/** Simulated epoch milliseconds. */
	readonly at: number;
	readonly endpoints?: EndpointRecord[];
	readonly discount?: ServerlessDiscount | null;
	readonly health?: Readonly<Record<string, Health>>;
	readonly pods?: PodRecord[];
	readonly gpuTypes?: GpuTypeRecord[];
};

type Options = {
	readonly pool: Pool;
	readonly apiKey: string;
	/** Each observation, oldest first; called between reads, so a slow consumer slows the transfer, not the process. */
	readonly onObservation: (observation: PastObservation) => void;
	readonly signal?: AbortSignal;
	/** The simulator answers once its past has run: wait this long for the headers. */
	readonly headersTimeoutMs?: number;
};

const newline = 10;

/**
Reads `GET /__sim/past` (the built-in simulator's simulated past, NDJSON) as it streams in, one
observation at a time: the whole answer (megabytes) is never one string. Returns how many lines
were read; throws an ApiError when the simulator refuses or the answer is cut off.
*/
export async function readSimPast({pool, apiKey, onObservation, signal, headersTimeoutMs = 120_000}: Options): Promise<number> {
	const label = 'the simulated past';
	let lines = 0;
	try {
		const response = await pool.request({
			path: '/__sim/past',
			method: 'GET',
			headers: {authorization: `Bearer ${apiKey}`, 'user-agent': 'podtop'},
			signal,
			headersTimeout: headersTimeoutMs,
		});
		if (response.statusCode !== 200) {
			const text = await response.body.text();
			let message = `HTTP ${response.statusCode}`;
			try {
				message = (JSON.parse(text) as {error?: string}).error ?? message;
			} catch {}

			throw new ApiError(kindForStatus(response.statusCode), `${label}: ${message}`, {status: response.statusCode});
		}

		let rest: Buffer | undefined;
		for await (const chunk of response.body as AsyncIterable<Buffer>) {
			const buffer = rest ? Buffer.concat([rest, chunk]) : chunk;
			let from = 0;
			for (let end = buffer.indexOf(newline, from); end !== -1; end = buffer.indexOf(newline, from)) {
				if (end > from) {
					onObservation(JSON.parse(buffer.toString('utf8', from, end)) as PastObservation);
					lines++;
				}

				from = end + 1;
			}

			rest = from < buffer.length ? buffer.subarray(from) : undefined;
		}

		if (rest && rest.length > 0) {
			throw new ApiError('network', `${label}: the answer ended inside a line`);
		}
	} catch (error) {
		if (error instanceof ApiError) {
			throw error;
		}

		throw fromTransportError(error, label);
	}

	return lines;
}
