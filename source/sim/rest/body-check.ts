import {invalid} from './rest-error.js';

type Kind = 'string' | 'integer' | 'boolean' | 'object' | 'string[]' | 'string-map';

const fits = (value: unknown, kind: Kind): boolean => {
	switch (kind) {
		case 'integer': {
			return Number.isInteger(value);
		}

		case 'object': {
			return typeof value === 'object' && value !== null && !Array.isArray(value);
		}

		case 'string[]': {
			return Array.isArray(value) && value.every(item => typeof item === 'string');
		}

		case 'string-map': {
			return fits(value, 'object') && Object.values(value as object).every(item => typeof item === 'string');
		}

		default: {
			return typeof value === kind;
		}
	}
};

/**
Checks a request object as the service's validator does: unknown properties and wrong types are 422 with
every failure listed (`$.gpu: additional properties 'bogus' not allowed`).
*/
export function checkBody(body: Record<string, unknown>, shape: Readonly<Record<string, Kind>>, where = '$', required: readonly string[] = []): void {
	const errors: string[] = [];
	for (const [key, value] of Object.entries(body)) {
		const kind = shape[key];
		if (!kind) {
			errors.push(`${where}: additional properties '${key}' not allowed`);
		} else if (!fits(value, kind)) {
			errors.push(`${where}.${key}: expected ${kind}`);
		}
	}

	for (const key of required) {
		if (body[key] === undefined) {
			errors.push(`${where}: missing property '${key}'`);
		}
	}

	if (errors.length > 0) {
		throw invalid(errors);
	}
}
