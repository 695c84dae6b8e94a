import type {ProbeRule} from '../config/alert-rules.js';
import {imageModels} from '../requests/image-request.js';
import {matches} from '../store/alert-conditions.js';

type Endpoint = {readonly id: string; readonly name?: string | null};

/**
The endpoints a probe rule sends to: the account's that its pattern matches (id or name, `*` as a
wildcard), and a public image model (not listed among the account's) when the pattern names it, or
matches it with more than a bare `*`: probing every endpoint must not mean paying for images.
*/
export function probeTargets(rule: Pick<ProbeRule, 'endpoint'>, endpoints: readonly Endpoint[]): string[] {
	const account = endpoints.filter(endpoint => matches(rule.endpoint, endpoint.id, endpoint.name)).map(endpoint => endpoint.id);
	const known = new Set(account);
	const models = rule.endpoint === '*' ? [] : imageModels.filter(model => !known.has(model.endpointId) && matches(rule.endpoint, model.endpointId, undefined));
	return [...account, ...models.map(model => model.endpointId)];
}
