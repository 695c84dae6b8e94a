import type {IncomingMessage, ServerResponse} from 'node:http';
import {execute, getOperationAST, type GraphQLError, parse, validate, type DocumentNode} from 'graphql';
import {schema} from '../graphql/schema.js';
import type {Simulator} from '../simulator.js';
import {applyFault} from './apply-fault.js';
import {BodyTooLargeError, readBody} from './read-body.js';
import {sendJson} from './respond.js';

type Body = {query?: unknown; variables?: unknown; operationName?: unknown};

function formatError(error: GraphQLError): Record<string, unknown> {
	const json = error.toJSON();
	return {...json, extensions: {code: 'INTERNAL_SERVER_ERROR', ...json.extensions}};
}

function badRequest(response: ServerResponse, message: string, code = 'BAD_REQUEST'): void {
	sendJson(response, 400, {errors: [{message, extensions: {code}}]});
}

/**
`POST /graphql`: a real graphql-js executor over the simulator's fleet. A document that does not
parse or validate is HTTP 400; a resolver error is HTTP 200 with `errors` and null data.
*/
export async function handleGraphqlRoute(
	sim: Simulator,
	rootValue: Record<string, unknown>,
	apiKey: string,
	request: IncomingMessage,
	response: ServerResponse,
): Promise<void> {
	if (request.method !== 'POST') {
		request.resume();
		sendJson(response, 405, {errors: [{message: 'Use POST for GraphQL requests', extensions: {code: 'METHOD_NOT_ALLOWED'}}]}, {allow: 'POST'});
		return;
	}

	if (sim.config.graphql === 'retired') {
		request.resume();
		sendJson(response, 410, {
			errors: [{message: 'The GraphQL API has been retired: use REST API v2 (/v2/pods, /v2/serverless, /v2/catalog/gpus)', extensions: {code: 'GONE'}}],
		});
		return;
	}

	const endStats = sim.stats.begin('graphql', 'request');
	if (await applyFault(sim, 'graphql', request, response)) {
		endStats();
		return;
	}

	const admission = sim.admitGraphql(apiKey);
	if (!admission.ok) {
		sim.stats.rateLimited('graphql', 'request');
		endStats();
		request.resume();
		sendJson(response, 429, {errors: [{message: admission.reason, extensions: {code: 'RATE_LIMITED'}}]}, {'retry-after': String(admission.retryAfterSeconds)});
		return;
	}

	try {
		let body: Body;
		try {
			body = JSON.parse(await readBody(request, 1024 * 1024)) as Body;
		} catch (error) {
			if (error instanceof BodyTooLargeError) {
				sendJson(response, 413, {errors: [{message: error.message, extensions: {code: 'PAYLOAD_TOO_LARGE'}}]}, {connection: 'close'});
				return;
			}

			badRequest(response, 'Request body is not valid JSON');
			return;
		}

		if (typeof body !== 'object' || body === null || typeof body.query !== 'string') {
			badRequest(response, 'Request body must be a JSON object with a "query" string');
			return;
		}

		let document: DocumentNode;
		try {
			document = parse(body.query);
		} catch (error) {
			sendJson(response, 400, {errors: [formatError(error as GraphQLError)].map(entry => ({...entry, extensions: {code: 'GRAPHQL_PARSE_FAILED'}}))});
			return;
		}

		const validationErrors = validate(schema, document);
		if (validationErrors.length > 0) {
			sendJson(response, 400, {errors: validationErrors.map(error => ({...formatError(error), extensions: {code: 'GRAPHQL_VALIDATION_FAILED'}}))});
			return;
		}

		const operationName = typeof body.operationName === 'string' ? body.operationName : undefined;
		const operation = getOperationAST(document, operationName);
		if (!operation) {
			badRequest(
				response,
				operationName ? `Unknown operation named "${operationName}"` : 'Must provide operationName when the document has several operations',
			);
			return;
		}

		// Each named operation counted apart (`operation:PodtopPods`), beside every request's `request`.
		sim.stats.begin('graphql', `operation:${operation.name?.value ?? 'anonymous'}`)();
		const variables = typeof body.variables === 'object' && body.variables !== null ? (body.variables as Record<string, unknown>) : undefined;
		const result = await execute({schema, document, rootValue, variableValues: variables, operationName});
		const errors = result.errors?.map(error => formatError(error));
		if (result.data === undefined) {
			sendJson(response, 400, {errors: errors?.map(error => ({...error, extensions: {code: 'BAD_USER_INPUT'}}))});
			return;
		}

		sendJson(response, 200, errors ? {errors, data: result.data} : {data: result.data});
	} finally {
		endStats();
	}
}
