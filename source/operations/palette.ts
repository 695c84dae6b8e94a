import type {PodtopState} from '../store/state.js';
import type {Place} from '../view-state/view-state.js';
import type {Operation} from './operation.js';
import {operationsIn} from './registry.js';

/** The palette's commands in a place, by name and alias. */
function commands(place: Place, readOnly: boolean): Array<{name: string; operation: Operation}> {
	return operationsIn(place, readOnly).flatMap(operation =>
		operation.palette ? [operation.palette.name, ...(operation.palette.aliases ?? [])].map(name => ({name, operation})) : [],
	);
}

/** Reads what was typed after `:`: the operation and its arguments, or what went wrong. */
export function parsePalette(input: string, place: Place, readOnly: boolean): {operation: Operation; args: string[]} | {error: string} {
	const [name = '', ...args] = input.trim().replace(/^:/, '').split(/\s+/).filter(Boolean);
	const match = commands(place, readOnly).find(command => command.name === name);
	if (!match) {
		const names = commands(place, readOnly)
			.filter(command => command.operation.palette?.name === command.name)
			.map(command => `:${command.name}`);
		return {error: `unknown command ":${name}" (try ${names.join(', ')})`};
	}

	return {operation: match.operation, args};
}

function commonPrefix(candidates: readonly string[]): string {
	return candidates.reduce((prefix, candidate) => {
		let length = 0;
		while (length < prefix.length && prefix[length] === candidate[length]) {
			length++;
		}

		return prefix.slice(0, length);
	});
}

/** Tab completion: the command name first, then its arguments (endpoint ids, then tracked job ids). */
export function completePalette(input: string, place: Place, readOnly: boolean, state: PodtopState): string {
	const parts = input.split(/\s+/);
	const index = parts.length - 1;
	const partial = parts[index] ?? '';
	let candidates: readonly string[];
	if (index === 0) {
		candidates = commands(place, readOnly)
			.filter(command => command.operation.palette?.name === command.name)
			.map(command => command.name);
	} else {
		const operation = commands(place, readOnly).find(command => command.name === parts[0])?.operation;
		const kind = operation?.palette?.args?.[index - 1];
		if (kind === 'endpoint') {
			candidates = state.endpoints.order;
		} else if (kind === 'job') {
			candidates = [...state.jobs.byKey.values()].filter(job => job.endpointId === parts[index - 1]).map(job => job.id);
		} else {
			candidates = [];
		}
	}

	const matches = candidates.filter(candidate => candidate.startsWith(partial));
	if (matches.length === 0) {
		return input;
	}

	const completed = matches.length === 1 ? `${matches[0] ?? ''} ` : commonPrefix(matches);
	return [...parts.slice(0, index), completed].join(' ');
}
