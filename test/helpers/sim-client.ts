import {request, type Dispatcher} from 'undici';
import {startSimulator, type RunningSimulator, type StartSimulatorOptions} from '../../source/sim/start-simulator.js';

export type Reply = {
	readonly status: number;
	readonly headers: Record<string, string | string[] | undefined>;
	readonly body: any;
};

export type TestSim = RunningSimulator & {
	/** A request with the right key (or `key: null` for none, a string for another). */
	readonly call: (method: string, path: string, options?: {body?: unknown; raw?: string | Buffer; key?: string | null; bare?: boolean}) => Promise<Reply>;
	readonly run: (endpointId: string, input: Record<string, unknown>, extra?: Record<string, unknown>) => Promise<string>;
	readonly status: (endpointId: string, jobId: string) => Promise<Reply>;
	readonly health: (endpointId: string) => Promise<any>;
};

/** Status, headers and body (parsed as JSON when it is JSON) of an undici response. */
export async function readReply(response: Dispatcher.ResponseData): Promise<Reply> {
	const text = await response.body.text();
	let parsed: unknown = text;
	try {
		parsed = JSON.parse(text);
	} catch {}

	return {status: response.statusCode, headers: response.headers, body: parsed};
}

/** A real simulator on 127.0.0.1 (load generator off unless asked) and a tiny HTTP client for it. */
export async function startTestSim(options: StartSimulatorOptions = {}): Promise<TestSim> {
	const sim = await startSimulator({port: 0, load: false, apiKey: 'test-key', ...options});
	const call: TestSim['call'] = async (method, path, {body, raw, key, bare} = {}) => {
		const token = key === undefined ? sim.apiKey : key;
		const headers: Record<string, string> = {};
		if (token !== null) {
			headers.authorization = bare ? token : `Bearer ${token}`;
		}

		const payload = raw ?? (body === undefined ? undefined : JSON.stringify(body));
		if (payload !== undefined) {
			headers['content-type'] = 'application/json';
		}

		return readReply(await request(`${sim.url}${path}`, {method: method as 'GET', headers, body: payload, headersTimeout: 20_000, bodyTimeout: 20_000}));
	};

	return {
		...sim,
		call,
		async run(endpointId, input, extra = {}) {
			const reply = await call('POST', `/v2/${endpointId}/run`, {body: {input, ...extra}});
			if (reply.status !== 200) {
				throw new Error(`run failed: ${reply.status} ${JSON.stringify(reply.body)}`);
			}

			return reply.body.id as string;
		},
		status: async (endpointId, jobId) => call('GET', `/v2/${endpointId}/status/${jobId}`),
		async health(endpointId) {
			return (await call('GET', `/v2/${endpointId}/health`)).body;
		},
	};
}

/** Polls `check` until it returns a truthy value, or fails after `timeoutMs`. */
export async function waitFor<T>(check: () => Promise<T> | T, timeoutMs = 10_000, intervalMs = 20): Promise<NonNullable<T>> {
	const deadline = Date.now() + timeoutMs;
	let last: T | undefined;
	while (Date.now() < deadline) {
		last = await check();
		if (last) {
			return last;
		}

		await new Promise(resolve => setTimeout(resolve, intervalMs));
	}

	throw new Error(`condition not met within ${timeoutMs} ms (last value: ${JSON.stringify(last)})`);
}

/** Waits until a job reaches `status`, returning its `/status` body. */
export async function waitForStatus(sim: TestSim, endpointId: string, jobId: string, status: string, timeoutMs = 10_000): Promise<any> {
	return waitFor(async () => {
		const reply = await sim.status(endpointId, jobId);
		return reply.body?.status === status ? reply.body : undefined;
	}, timeoutMs);
}
