import {invalid, RestError} from './rest-error.js';

/**
A v2 query: each key once (arrays are one comma-joined value, `product=POD,SERVERLESS`; a repeated key is
refused with 400, as the service does), read through typed getters that refuse bad values with 400 or 422.
*/
export class RestQuery {
	readonly #values = new Map<string, string>();

	constructor(url: URL) {
		for (const [key, value] of url.searchParams) {
			if (this.#values.has(key)) {
				throw new RestError(400, `query parameter "${key}" is repeated; send one value, comma-joined (${key}=A,B)`);
			}

			this.#values.set(key, value);
		}
	}

	has(name: string): boolean {
		return this.#values.has(name);
	}

	string(name: string): string | undefined {
		return this.#values.get(name);
	}

	/** A comma-joined list; every item one of `allowed` (422 otherwise). Undefined when absent. */
	list<T extends string>(name: string, allowed?: readonly T[], pattern?: RegExp): T[] | undefined {
		const raw = this.#values.get(name);
		if (raw === undefined) {
			return undefined;
		}

		const items = raw.split(',').map(item => item.trim());
		const bad = items.filter(item => item === '' || (allowed && !(allowed as readonly string[]).includes(item)) || (pattern && !pattern.test(item)));
		if (bad.length > 0) {
			throw invalid(bad.map(item => `${name}: "${item}" is not ${allowed ? `one of ${allowed.join(', ')}` : `of the form ${pattern?.source ?? 'a value'}`}`));
		}

		return items as T[];
	}

	/** One of `allowed` (422 otherwise). */
	one<T extends string>(name: string, allowed: readonly T[]): T | undefined {
		const list = this.list(name, allowed);
		if (list && list.length !== 1) {
			throw invalid([`${name}: takes one value`]);
		}

		return list?.[0];
	}

	integer(name: string, min: number): number | undefined {
		const raw = this.#values.get(name);
		if (raw === undefined) {
			return undefined;
		}

		const value = Number(raw);
		if (!/^\d+$/.test(raw) || value < min) {
			throw invalid([`${name}: must be an integer of at least ${min}, got "${raw}"`]);
		}

		return value;
	}

	boolean(name: string): boolean | undefined {
		const raw = this.#values.get(name);
		if (raw === undefined) {
			return undefined;
		}

		if (raw !== 'true' && raw !== 'false') {
			throw invalid([`${name}: must be true or false, got "${raw}"`]);
		}

		return raw === 'true';
	}
}
