import {sanitizeLine} from '../format/sanitize.js';
import {naturalCompare} from '../lib/natural-compare.js';
import type {PodtopState} from '../store/state.js';
import type {PaletteCycle, Place} from '../view-state/view-state.js';
import {endpointIdNamed} from './endpoint-named.js';
import type {ArgumentKind, Operation} from './operation.js';
import {operationsIn} from './registry.js';
import {knownWorkerIds} from './worker-view.js';

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

/** A command as help and the palette say it: `:job <endpoint> <job>`. */
export function paletteUsage(operation: Operation): string {
	const args = operation.palette?.args ?? [];
	return [`:${operation.palette?.name ?? operation.id}`, ...args.map(kind => `<${kind}>`)].join(' ');
}

function commonPrefix(candidates: readonly string[]): string {
	return candidates.reduce((prefix, candidate) => {
		let length = 0;
		while (length < prefix.length && prefix[length]?.toLowerCase() === candidate[length]?.toLowerCase()) {
			length++;
		}

		return prefix.slice(0, length);
	});
}

/** A word the palette can take as it is: nothing a terminal would draw otherwise, no space to split it. */
const typable = (text: string) => text !== '' && sanitizeLine(text) === text && !/\s/.test(text);

/** Each endpoint as the palette takes it, in natural order: its name when that is one word and no other endpoint's, else its id. */
function endpointWords(state: PodtopState): string[] {
	const {byId, order} = state.endpoints;
	const names = order.map(id => byId[id]?.record.name ?? '');
	return order
		.map((id, index) => {
			const name = names[index]!;
			return typable(name) && names.indexOf(name) === names.lastIndexOf(name) ? name : id;
		})
		.sort(naturalCompare);
}

/** What an argument of a kind may be: endpoint names, the tracked job ids or the workers of the endpoint before it, or profile names. */
function argumentCandidates(
	kind: ArgumentKind | undefined,
	previous: string | undefined,
	state: PodtopState,
	profiles: () => readonly string[],
): readonly string[] {
	switch (kind) {
		case 'endpoint': {
			return endpointWords(state);
		}

		case 'job': {
			const endpointId = previous === undefined ? undefined : endpointIdNamed(state, previous);
			return [...state.jobs.byKey.values()].filter(job => job.endpointId === endpointId).map(job => job.id);
		}

		case 'worker': {
			return knownWorkerIds(state, previous === undefined ? undefined : endpointIdNamed(state, previous));
		}

		case 'profile': {
			return profiles();
		}

		case undefined: {
			return [];
		}
	}
}

/** The word being typed in the palette and what it may be. */
export type PaletteCompletion = {
	/** The input before the word. */
	readonly head: string;
	readonly word: string;
	/** What the word may be, those that start with it (without regard to case), each typable as it is. */
	readonly candidates: readonly string[];
	/** What they are: commands, an argument of the command typed, or nothing more to type (undefined). */
	readonly kind: 'command' | ArgumentKind | undefined;
	/** The command typed, once its name is. */
	readonly operation?: Operation;
};

/** The word being typed and its candidates: command names first, then the command's arguments (endpoints, their tracked jobs, profiles). */
export function paletteCompletion(
	input: string,
	place: Place,
	readOnly: boolean,
	state: PodtopState,
	profiles: () => readonly string[] = () => [],
): PaletteCompletion {
	const at = input.search(/\S*$/);
	const head = input.slice(0, at);
	const word = input.slice(at);
	const before = head.split(/\s+/).filter(Boolean);
	const starts = (candidate: string) => candidate.toLowerCase().startsWith(word.toLowerCase());
	if (before.length === 0) {
		const names = commands(place, readOnly)
			.filter(command => command.operation.palette?.name === command.name)
			.map(command => command.name);
		return {head, word, candidates: names.filter(name => starts(name)), kind: 'command'};
	}

	const operation = commands(place, readOnly).find(command => command.name === before[0])?.operation;
	const kind = operation?.palette?.args?.[before.length - 1];
	const candidates = argumentCandidates(kind, before.at(-1), state, profiles).filter(candidate => typable(candidate) && starts(candidate));
	return {head, word, candidates: [...new Set(candidates)], kind, operation};
}

/**
Tab (step 1) or Shift-Tab (-1) in the palette, as a shell does: one candidate is completed with a
space after it; several, to the longest text they share; when they share no more than is typed, Tab
puts the first in (Shift-Tab the last) and each press again the next, round (`cycle`).
*/
export function tabPalette(
	input: string,
	cycle: PaletteCycle | undefined,
	completion: () => PaletteCompletion,
	step: 1 | -1 = 1,
): {readonly input: string; readonly cycle?: PaletteCycle} {
	if (cycle && cycle.candidates.length > 0) {
		const count = cycle.candidates.length;
		const index = (cycle.index + step + count) % count;
		return {input: `${cycle.head}${cycle.candidates[index]!}`, cycle: {...cycle, index}};
	}

	const {head, word, candidates} = completion();
	if (candidates.length === 0) {
		return {input};
	}

	if (candidates.length === 1) {
		return {input: `${head}${candidates[0]!} `};
	}

	const prefix = commonPrefix(candidates);
	if (prefix.length > word.length) {
		return {input: `${head}${prefix}`};
	}

	const index = step === 1 ? 0 : candidates.length - 1;
	return {input: `${head}${candidates[index]!}`, cycle: {head, candidates, index}};
}
