import {ApiError} from '../api/errors.js';
import {sanitizeLine} from '../format/sanitize.js';
import type {ScheduledApi} from '../poll/scheduled-api.js';
import {imageModelOf} from '../requests/image-request.js';
import type {PodtopStore} from '../store/create-store.js';
import {findNamed, nameWithId, type Named} from './find-named.js';
import type {Label, NamedKind} from './write-spec.js';

export type NameResolver = {
	/**
	The endpoint, pod or GPU type a command line names, by id or by name, from the account's list
	read now (one request at a user's priority). Unknown or shared names are a NotFoundError (exit 4)
	listing the candidates with their ids. When the list cannot be read, the text is taken as an id:
	ids work wherever they did.
	*/
	readonly resolve: (kind: NamedKind, text: string) => Promise<Named>;
	/** A thing as a message names it: `llama (ep1)` when its name is known (listed, resolved or in the store), else its id. */
	readonly label: Label;
};

const missing: Record<NamedKind, (text: string) => string> = {
	endpoint: text => `no endpoint "${text}" in this account`,
	pod: text => `no pod "${text}" in this account`,
	gpu: text => `no GPU type "${text}" at the service`,
};

export function createNameResolver(api: ScheduledApi, store: PodtopStore): NameResolver {
	const learned = new Map<string, string>();
	const keyOf = (kind: NamedKind, id: string) => `${kind}\u0000${id}`;
	const list = async (kind: NamedKind): Promise<Named[]> => {
		switch (kind) {
			case 'endpoint': {
				return (await api.endpoints('action')).map(({id, name}) => ({kind, id, name: name ?? ''}));
			}

			case 'pod': {
				return (await api.podSummaries('action')).map(({id, name}) => ({kind, id, name: name ?? ''}));
			}

			default: {
				return (await api.gpuTypes('action')).map(({id, displayName}) => ({kind, id, name: displayName ?? ''}));
			}
		}
	};

	const fromStore = (kind: NamedKind, id: string): string | undefined => {
		const state = store.getState();
		const name =
			kind === 'endpoint' ? state.endpoints.byId[id]?.record.name : kind === 'pod' ? state.pods.byId[id]?.record.name : state.gpus.byId[id]?.record.displayName;
		return typeof name === 'string' && name !== '' ? name : undefined;
	};

	return {
		async resolve(kind, text) {
			// The public image models are endpoints of no account: their ids are their names.
			if (kind === 'endpoint' && imageModelOf(text)) {
				return {kind, id: text, name: text};
			}

			let things: Named[];
			try {
				things = await list(kind);
			} catch (error) {
				// Refused or unreachable: the write that follows says why, as it did before names were read.
				if (error instanceof ApiError) {
					return {kind, id: text, name: fromStore(kind, text) ?? ''};
				}

				throw error;
			}

			for (const thing of things) {
				if (thing.name !== '') {
					learned.set(keyOf(kind, thing.id), thing.name);
				}
			}

			return findNamed(things, text, {missing: missing[kind](sanitizeLine(text))});
		},
		label(kind, id) {
			return nameWithId({id, name: fromStore(kind, id) ?? learned.get(keyOf(kind, id)) ?? ''});
		},
	};
}
