import type {IncomingMessage, ServerResponse} from 'node:http';
import type {Simulator} from '../simulator.js';
import {isValidKey} from '../http/auth.js';
import {applyFault} from '../http/apply-fault.js';
import {simUserId} from '../graphql/endpoint-record.js';
import {sseHeaders} from '../logs/log-stream.js';
import {sendProblem} from './problem.js';
import {RestQuery} from './query.js';
import {readJsonObject} from './read-json.js';
import {RestError, toRestError} from './rest-error.js';
import {matchRoute, type KeyRole, type RestMethod, type RestRoute} from './router.js';
import {restRoutes} from './routes.js';

type Exchange = {
	readonly sim: Simulator;
	readonly request: IncomingMessage;
	readonly response: ServerResponse;
	readonly url: URL;
	/** The path below `/v2`, URL-decoded. */
	readonly segments: readonly string[];
	/** Settles once the simulated past has been run. */
	readonly ready?: Promise<void>;
};

/** v2 takes the key only as `Authorization: Bearer KEY`. */
function bearerKey(request: IncomingMessage): string | undefined {
	return /^bearer\s+(\S+)$/i.exec(request.headers.authorization?.trim() ?? '')?.[1];
}

function sendAnswer(response: ServerResponse, status: number, body: unknown, headers: Record<string, string>): void {
	if (response.headersSent || response.destroyed) {
		return;
	}

	if (status === 204) {
		response.writeHead(204, headers);
		response.end();
		return;
	}

	const text = JSON.stringify(body);
	response.writeHead(status, {'content-type': 'application/json', 'content-length': Buffer.byteLength(text), ...headers});
	response.end(text);
}

async function serve(sim: Simulator, route: RestRoute, method: RestMethod, role: KeyRole, params: Record<string, string>, exchange: Exchange) {
	const handler = route.methods[method]!;
	const query = new RestQuery(exchange.url);
	return handler({sim, role, request: exchange.request, query, params, body: async () => readJsonObject(exchange.request)});
}

/**
`/v2/{pods,serverless,catalog,…}`: REST API v2 over the same fleet GraphQL serves. Answers JSON, 204 with no
body, or `application/problem+json` errors, as the service's published spec has them.
*/
export async function handleRestRoute(exchange: Exchange): Promise<void> {
	const {sim, request, response, segments} = exchange;
	const key = bearerKey(request);
	const role: KeyRole | undefined = isValidKey(key, sim.config.apiKey)
		? 'owner'
		: sim.config.devApiKey !== undefined && isValidKey(key, sim.config.devApiKey)
			? 'dev'
			: undefined;
	if (!role) {
		request.resume();
		sendProblem(response, 401, request.headers.authorization ? 'invalid bearer token' : 'missing bearer token');
		return;
	}

	await exchange.ready;
	// Injected faults act before the service does: no rate headers, nothing counted.
	const answer = (status: number, detail: string, extra: Record<string, string>) => {
		sendProblem(response, status, detail, undefined, extra);
	};

	if (await applyFault(sim, `v2:${segments[0]!}`, request, response, undefined, answer)) {
		return;
	}

	// One owner per key in the simulator: the windows are the account's, shared by every program using the key.
	const admission = sim.restWindows.admit(simUserId);
	const {headers} = admission;
	const endStats = sim.stats.begin('rest', 'request');
	try {
		if (!admission.ok) {
			sim.stats.rateLimited('rest', 'request');
			throw new RestError(429, `rate limit exceeded for the ${admission.window!} window`, undefined, {'retry-after': String(admission.retryAfter)});
		}

		const match = matchRoute(restRoutes, segments);
		if (!match) {
			throw new RestError(404, `no route ${request.method ?? 'GET'} /v2/${segments.join('/')}`);
		}

		const method = (request.method ?? 'GET') as RestMethod;
		if (!match.route.methods[method]) {
			throw new RestError(405, 'The requested method is not allowed for this path.', undefined, {allow: Object.keys(match.route.methods).join(', ')});
		}

		// Counted per route too (`GET /billing/pods`), so a test can tell what a client asked of each.
		sim.stats.begin('rest', `${method} ${match.route.path}`)();
		const answer = await serve(sim, match.route, method, role, match.params, exchange);
		request.resume();
		if ('events' in answer) {
			response.writeHead(200, {...sseHeaders, ...headers});
			answer.events(response);
			return;
		}

		sendAnswer(response, answer.status, 'body' in answer ? answer.body : undefined, headers);
	} catch (error) {
		const problem = toRestError(error) ?? new RestError(500, error instanceof Error ? error.message : 'internal error');
		request.resume();
		sendProblem(response, problem.status, problem.detail, problem.errors, {...headers, ...problem.headers});
	} finally {
		endStats();
	}
}
