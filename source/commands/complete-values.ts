import {profileNames} from '../config/api-key.js';
import {resolveTarget} from '../engine/resolve-target.js';
import {sanitizeLine} from '../format/sanitize.js';
import {accountNames, type NamedThing} from '../headless/account-names.js';
import {eventTypeWords} from '../history/history-types.js';
import {imageModels} from '../requests/image-request.js';
import {isLookupKind, type LookupKind} from './value-kind.js';

/** A candidate: the word to insert and what it is. */
type Candidate = {readonly value: string; readonly description?: string};

/** The last value a flag is given on the line: `--profile prod` or `--profile=prod`. */
export function flagValue(words: readonly string[], flag: string): string | undefined {
	let value: string | undefined;
	for (const [index, word] of words.entries()) {
		if (word === flag) {
			value = words[index + 1] ?? value;
		} else if (word.startsWith(`${flag}=`)) {
			value = word.slice(flag.length + 1);
		}
	}

	return value;
}

/** The account's things on this host (the agent, else the recorded history), for the line's account: its profile, URLs, --demo. */
async function things(words: readonly string[]): Promise<readonly NamedThing[]> {
	const target = resolveTarget({
		demo: words.includes('--demo'),
		apiUrl: flagValue(words, '--api-url'),
		graphqlUrl: flagValue(words, '--graphql-url'),
		profile: flagValue(words, '--profile'),
	});
	if (target.mode !== 'live') {
		return [];
	}

	return (await accountNames(target, {historyDirectory: flagValue(words, '--history-dir')})).things;
}

const podDetail = (pod: NamedThing) => [pod.name, pod.status].filter(Boolean).join(' · ');

/** Each candidate of a comma-separated list, after what is written before the last comma. */
const listed = (current: string, values: readonly Candidate[]) => {
	const head = current.slice(0, current.lastIndexOf(',') + 1);
	const given = new Set(head.split(','));
	return values.filter(({value}) => !given.has(value)).map(({value, description}) => ({value: `${head}${value}`, description}));
};

async function candidates(kind: LookupKind, current: string, words: readonly string[]): Promise<readonly Candidate[]> {
	switch (kind) {
		case 'profile': {
			return profileNames().map(value => ({value}));
		}

		case 'event-types': {
			return listed(
				current,
				eventTypeWords.map(value => ({value})),
			);
		}

		case 'thing': {
			const named = new Map<string, Candidate>([['account', {value: 'account', description: "the account's totals"}]]);
			for (const thing of await things(words)) {
				const value = thing.name || thing.id;
				if (!named.has(value)) {
					named.set(value, {value, description: `${thing.kind} ${thing.id}${thing.deleted ? ' (deleted)' : ''}`});
				}
			}

			return [...named.values()];
		}

		default: {
			const all = (await things(words)).filter(thing => !thing.deleted);
			const of = (wanted: NamedThing['kind']) => all.filter(thing => thing.kind === wanted);
			switch (kind) {
				case 'pod': {
					return of('pod').map(pod => ({value: pod.id, description: podDetail(pod)}));
				}

				case 'gpu': {
					return of('gpu').map(gpu => ({value: gpu.id, description: gpu.name}));
				}

				case 'endpoints': {
					return listed(
						current,
						of('endpoint').map(endpoint => ({value: endpoint.id, description: endpoint.name})),
					);
				}

				case 'any-endpoint': {
					return [
						...of('endpoint').map(endpoint => ({value: endpoint.id, description: endpoint.name})),
						...imageModels.map(model => ({value: model.endpointId, description: model.title})),
					];
				}

				default: {
					return of('endpoint').map(endpoint => ({value: endpoint.id, description: endpoint.name}));
				}
			}
		}
	}
}

/**
A candidate as a line for the completion scripts: the value, a tab, its description. A value the
sanitiser would change (an escape sequence, a control character, a newline) is left out: it
could not be typed back, and nothing of it may reach the shell's line editor; descriptions pass
the sanitiser.
*/
export function candidateLines(list: readonly Candidate[]): string {
	return list
		.filter(({value}) => value !== '' && sanitizeLine(value) === value && !value.includes('\t'))
		.map(({value, description}) => (description ? `${value}\t${sanitizeLine(description)}\n` : `${value}\n`))
		.join('');
}

/**
`podtop __complete <kind> <word> [<words of the line>…]` (hidden; the completion scripts call it):
the candidates for a value only this host knows, one per line. It never sends a request to the
service and never fails loudly: a line it cannot read completes nothing.
*/
export async function runComplete(argv: readonly string[]): Promise<void> {
	const [kind, current = '', ...words] = argv;
	if (!isLookupKind(kind)) {
		return;
	}

	try {
		process.stdout.write(candidateLines(await candidates(kind, current, words)));
	} catch {}
}
