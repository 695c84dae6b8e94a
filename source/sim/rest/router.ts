import type {IncomingMessage, ServerResponse} from 'node:http';
import type {Simulator} from '../simulator.js';
import type {RestQuery} from './query.js';

export type KeyRole = 'owner' | 'dev';

export type RestMethod = 'GET' | 'POST' | 'PUT' | 'PATCH' | 'DELETE';

export type RestContext = {
	readonly sim: Simulator;
	/** Whose key asked: the account's own, or a team Dev key (no billing). */
	readonly role: KeyRole;
	readonly request: IncomingMessage;
	readonly query: RestQuery;
	/** Path parameters, URL-decoded (`/catalog/gpus/NVIDIA%20L4` gives `{id: 'NVIDIA L4'}`). */
	readonly params: Readonly<Record<string, string>>;
	/** The JSON object body (400 when it is not one). */
	readonly body: () => Promise<Record<string, unknown>>;
};

/**
What a route answers: 200 or 201 with a JSON body, 204 with none, or 200 with server-sent events written by
`events` once the head (with the rate headers) is sent. Errors are thrown as `RestError`.
*/
export type RestAnswer =
	{readonly status: 200 | 201; readonly body: unknown} | {readonly status: 204} | {readonly status: 200; readonly events: (response: ServerResponse) => void};

export type RestHandler = (context: RestContext) => RestAnswer | Promise<RestAnswer>;

/** One path of the spec (below `/v2`, e.g. `/pods/{id}/action`) and its methods. */
export type RestRoute = {
	readonly path: string;
	readonly methods: Readonly<Partial<Record<RestMethod, RestHandler>>>;
};

export type RouteMatch = {readonly route: RestRoute; readonly params: Record<string, string>};

/** The route whose path fits these segments; literal segments beat parameters (`/registries/delegations` over `/registries/{id}`). */
export function matchRoute(routes: readonly RestRoute[], segments: readonly string[]): RouteMatch | undefined {
	let best: (RouteMatch & {literals: number}) | undefined;
	for (const route of routes) {
		const pattern = route.path.split('/').filter(Boolean);
		if (pattern.length !== segments.length) {
			continue;
		}

		const params: Record<string, string> = {};
		let literals = 0;
		const fits = pattern.every((part, index) => {
			const segment = segments[index]!;
			if (part.startsWith('{')) {
				params[part.slice(1, -1)] = segment;
				return true;
			}

			literals++;
			return part === segment;
		});
		if (fits && (!best || literals > best.literals)) {
			best = {route, params, literals};
		}
	}

	return best && {route: best.route, params: best.params};
}

export const ok = (body: unknown): RestAnswer => ({status: 200, body});
export const created = (body: unknown): RestAnswer => ({status: 201, body});
export const noContent: RestAnswer = {status: 204};
export const eventStream = (events: (response: ServerResponse) => void): RestAnswer => ({status: 200, events});
