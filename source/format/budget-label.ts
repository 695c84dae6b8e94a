import {fitMiddle} from './fit.js';
import {sanitizeLine} from './sanitize.js';

const operationNames: Readonly<Record<string, string>> = {'purge-queue': 'purge'};

/**
A rate budget's name for the header: which operation, on which endpoint (by name, cut in the
middle so both ends stay recognisable): `graphql`, `health llama-3…struct`, `run flux-schnell`.
*/
export function budgetLabel(key: string, endpointName: (endpointId: string) => string | undefined, nameWidth = 14, ellipsis = '…'): string {
	const colon = key.lastIndexOf(':');
	if (colon === -1) {
		return key;
	}

	const endpointId = key.slice(0, colon);
	const group = key.slice(colon + 1);
	const name = sanitizeLine(endpointName(endpointId) ?? endpointId);
	return `${operationNames[group] ?? group} ${fitMiddle(name, nameWidth, ellipsis)}`;
}
