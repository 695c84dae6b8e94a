import {readFileSync} from 'node:fs';
import {Ajv2020} from 'ajv/dist/2020.js';
import {expect} from 'vitest';
import type {Reply} from '../../helpers/sim-client.js';

type Operation = {responses: Record<string, {$ref?: string; content?: Record<string, unknown>; description?: string}>};
type Spec = {paths: Record<string, Record<string, Operation | unknown>>; components: {responses: Record<string, {content?: Record<string, unknown>}>}};

const specUrl = new URL('../../../spec/runpod-rest-v2.openapi.json', import.meta.url);
export const spec = JSON.parse(readFileSync(specUrl, 'utf8')) as Spec;
const specId = 'https://podtop.invalid/runpod-rest-v2.openapi.json';

// OpenAPI 3.1 schemas are JSON Schema 2020-12; `discriminator` and `example` are OpenAPI's own keywords, so not strict.
const ajv = new Ajv2020({strict: false, allErrors: true});
ajv.addFormat('date-time', /^\d{4}-\d\d-\d\dT\d\d:\d\d:\d\d(?:\.\d+)?(?:Z|[+-]\d\d:\d\d)$/);
ajv.addFormat('uri', /^[a-z][a-z\d+.-]*:\/\/\S+$/i);
ajv.addFormat('float', () => true);
ajv.addFormat('double', () => true);
ajv.addSchema({...spec, $id: specId});

const pointer = (...parts: string[]) => parts.map(part => part.replaceAll('~', '~0').replaceAll('/', '~1')).join('/');

/** Every (method, path, status) an answer has been checked for, e.g. `GET /v2/pods/{id} 404`. */
export const covered = new Set<string>();

/** The spec path (`/v2/catalog/gpus/{id}`) a concrete one (`/v2/catalog/gpus/NVIDIA%20L4?x=1`) is an instance of; literal segments win. */
export function specPathOf(path: string): string | undefined {
	const segments = path.split('?')[0]!.split('/').filter(Boolean);
	let best: {path: string; literals: number} | undefined;
	for (const candidate of Object.keys(spec.paths)) {
		const pattern = candidate.split('/').filter(Boolean);
		if (pattern.length !== segments.length) {
			continue;
		}

		const literals = pattern.filter(part => !part.startsWith('{')).length;
		const fits = pattern.every((part, index) => part.startsWith('{') || part === segments[index]);
		if (fits && (!best || literals > best.literals)) {
			best = {path: candidate, literals};
		}
	}

	return best?.path;
}

const rateLimit = /^"minute";r=\d+;t=\d+, "hour";r=\d+;t=\d+, "day";r=\d+;t=\d+$/;
const rateLimitPolicy = /^"minute";q=\d+;w=60, "hour";q=\d+;w=3600, "day";q=\d+;w=86400$/;

type Options = {
	/** Edge answers (an injected proxy 429/403/502) carry no body and no rate headers. */
	readonly edge?: boolean;
	/** 401 and injected faults come before the rate limiter: no rate headers. */
	readonly unmetered?: boolean;
};

/**
Checks one v2 answer against the spec: the status is one the operation lists (or its `default`), the
content type is the one the spec gives for it, a 204 has no body, and the body validates against the
response's schema. Authenticated answers carry `RateLimit` and `RateLimit-Policy` in the notes' format.
*/
export function expectConforms(method: string, path: string, reply: Reply, options: Options = {}): void {
	const template = specPathOf(path);
	expect(template, `${path} is a path of the spec`).toBeDefined();
	const operation = spec.paths[template!]![method.toLowerCase()] as Operation | undefined;
	expect(operation, `${method} ${template} is in the spec`).toBeDefined();
	const status = String(reply.status);
	const key = operation!.responses[status] ? status : 'default';
	covered.add(`${method} ${template} ${reply.status}`);
	const where = `${method} ${path} → ${status}`;
	if (options.edge) {
		expect(reply.body, `${where}: an edge answer has no body`).toBe('');
		return;
	}

	const entry = operation!.responses[key]!;
	const declared = entry.$ref ? spec.components.responses[entry.$ref.split('/').pop()!]! : entry;
	const contentType = String(reply.headers['content-type'] ?? '');
	if (!declared.content || reply.status === 204) {
		expect(reply.body, `${where}: no body`).toBe('');
		expect(contentType, `${where}: no content type`).toBe('');
	} else {
		const mediaType = Object.keys(declared.content)[0]!;
		expect(contentType.split(';')[0], `${where}: content type`).toBe(mediaType);
		const base = entry.$ref
			? `${specId}#/${pointer('components', 'responses', entry.$ref.split('/').pop()!, 'content', mediaType, 'schema')}`
			: `${specId}#/${pointer('paths', template!, method.toLowerCase(), 'responses', key, 'content', mediaType, 'schema')}`;
		const validate = ajv.getSchema(base) ?? ajv.compile({$ref: base});
		const valid = validate(reply.body);
		expect(valid ? [] : validate.errors, `${where}: body ${JSON.stringify(reply.body).slice(0, 300)}`).toEqual([]);
	}

	if (!options.unmetered && reply.status !== 401) {
		expect(String(reply.headers.ratelimit), `${where}: RateLimit`).toMatch(rateLimit);
		expect(String(reply.headers['ratelimit-policy']), `${where}: RateLimit-Policy`).toMatch(rateLimitPolicy);
	}
}
