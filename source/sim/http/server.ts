import {createServer, type IncomingMessage, type Server, type ServerResponse} from 'node:http';
import type {PastRun} from '../past-run.js';
import type {Simulator} from '../simulator.js';
import {createRootValue} from '../graphql/resolvers.js';
import {handleRestRoute} from '../rest/rest-route.js';
import {isRestResource} from '../rest/resources.js';
import {isValidKey, presentedKey} from './auth.js';
import {handleGraphqlRoute} from './graphql-route.js';
import {handleJobRoute} from './job-routes.js';
import {sendError} from './respond.js';
import {serveOutput} from './output-route.js';
import {servePast} from './past-route.js';
import {handleSimRoute} from './sim-routes.js';

/** Longer than any sensible poll interval, so clients keep their connections. */
const keepAliveMs = 65_000;

async function route(
	sim: Simulator,
	past: PastRun | undefined,
	graphqlRoot: Record<string, unknown>,
	request: IncomingMessage,
	response: ServerResponse,
	closing: AbortSignal,
): Promise<void> {
	const url = new URL(request.url ?? '/', 'http://sim.local');
	let segments: string[];
	try {
		segments = url.pathname
			.split('/')
			.filter(Boolean)
			.map(part => decodeURIComponent(part));
	} catch {
		sendError(response, 400, 'Malformed URL path');
		request.resume();
		return;
	}

	const [root, ...parts] = segments;
	// An image model's result is a public link, as on the service: no key.
	if (root === '__sim' && parts[0] === 'outputs' && parts.length === 2 && (request.method === 'GET' || request.method === 'HEAD')) {
		serveOutput(sim, parts[1]!, request.method === 'HEAD', response);
		request.resume();
		return;
	}

	// REST v2 (`/v2/pods`, `/v2/serverless`, …) answers its own way, problem+json from the first 401 on.
	if (root === 'v2' && isRestResource(parts[0])) {
		await handleRestRoute({sim, request, response, url, segments: parts, ready: past?.present});
		return;
	}

	// GraphQL also takes the key as ?api_key= (runpod-python does); the job API never does.
	const key = presentedKey(request, url, root === 'graphql');
	// A team Dev key works everywhere a key does but on REST v2's billing.
	if (!isValidKey(key, sim.config.apiKey) && !(sim.config.devApiKey !== undefined && isValidKey(key, sim.config.devApiKey))) {
		// The body of a 401 is not something clients may depend on; keep it plain.
		sendError(response, 401, 'Unauthorized');
		request.resume();
		return;
	}

	// The past is streamed as it is run; every other answer waits for the present (the fleet is hours behind until then).
	if (root === '__sim' && parts.join('/') === 'past') {
		request.resume();
		await servePast(past, request.method ?? 'GET', response);
		return;
	}

	await past?.present;

	switch (root) {
		case 'v2': {
			await handleJobRoute(sim, key!, request, response, url, parts, closing);
			return;
		}

		case 'graphql': {
			await handleGraphqlRoute(sim, graphqlRoot, key!, request, response);
			return;
		}

		case '__sim': {
			await handleSimRoute(sim, request, response, parts);
			return;
		}

		default: {
			sendError(response, 404, `No route ${request.method} ${url.pathname}`);
			request.resume();
		}
	}
}

/**
The simulator's HTTP server: the job API under `/v2/<endpoint>`, REST v2 under `/v2/{pods,serverless,catalog,…}`, GraphQL at `/graphql`, introspection under `/__sim`
(the simulated past's observations at `/__sim/past`).
*/
export function createSimServer(sim: Simulator, past?: PastRun): {server: Server; closing: AbortController} {
	const closing = new AbortController();
	const graphqlRoot = createRootValue(sim);
	const server = createServer((request, response) => {
		route(sim, past, graphqlRoot, request, response, closing.signal).catch((error: unknown) => {
			sendError(response, 500, error instanceof Error ? error.message : 'Internal error');
		});
	});
	server.keepAliveTimeout = keepAliveMs;
	server.headersTimeout = keepAliveMs + 1000;
	server.requestTimeout = 330_000;
	return {server, closing};
}
