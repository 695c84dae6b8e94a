import type {PodtopState} from '../store/state.js';

/** The endpoint a palette argument names: by id, else by its name (the store's endpoints). */
export function endpointIdNamed(state: PodtopState, text: string): string | undefined {
	const {byId, order} = state.endpoints;
	if (byId[text]) {
		return text;
	}

	const named = order.filter(id => byId[id]?.record.name === text);
	return named.length === 1 ? named[0] : undefined;
}
