import type {PodtopState} from '../store/state.js';
import type {Place} from '../view-state/view-state.js';
import type {ArgumentKind, Operation} from './operation.js';
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

/** What an argument of a kind may be: endpoint ids, the tracked job ids of the endpoint before it, or profile names. */
function argumentCandidates(
	kind: ArgumentKind | undefined,
	previous: string | undefined,
	state: PodtopState,
	profiles: () => readonly string[],
): readonly string[] {
	switch (kind) {
		case 'endpoint': {
			return state.endpoints.order;
		}

		case 'job': {
			return [...state.jobs.byKey.values()].filter(job => job.endpointId === previous).map(job => job.id);
		}

		case 'profile': {
			return profiles();
		}

		case undefined: {
			return [];
		}
	}
}

/** Tab completion: the command name first, then its arguments (endpoint ids, then tracked job ids; profile names, read when asked). */
export function completePalette(input: string, place: Place, readOnly: boolean, state: PodtopState, profiles: () => readonly string[] = () => []): string {
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
		candidates = argumentCandidates(operation?.palette?.args?.[index - 1], parts[index - 1], state, profiles);
	}

	const matches = candidates.filter(candidate => candidate.startsWith(partial));
	if (matches.length === 0) {
		return input;
	}

	const completed = matches.length === 1 ? `${matches[0] ?? ''} ` : commonPrefix(matches);
	return [...parts.slice(0, index), completed].join(' ');
}
