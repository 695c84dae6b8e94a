import {InvalidRequestError} from '../job-request.js';

/** Reads an optional integer query parameter in milliseconds, within bounds; 400 otherwise. */
export function readMillis(url: URL, name: string, bounds: {readonly min: number; readonly max: number}): number | undefined {
	const raw = url.searchParams.get(name);
	if (raw === null || raw === '') {
		return undefined;
	}

	const value = Number(raw);
	if (!Number.isInteger(value) || value < bounds.min || value > bounds.max) {
		throw new InvalidRequestError(`${name} must be an integer number of milliseconds between ${bounds.min} and ${bounds.max}, got ${raw}`);
	}

	return value;
}
