import {sanitizeLine} from '../format/sanitize.js';
import {NotFoundError} from '../lib/not-found-error.js';
import type {LogSubject} from '../model/log-session.js';
import type {WorkerList} from '../model/worker.js';
import {nameWithId, type Named} from './find-named.js';

/** What a command line names for `podtop logs`: a pod, one worker of an endpoint, or all of its workers (merged). */
export type LogNames =
	| {readonly kind: 'pod'; readonly pod: string}
	| {readonly kind: 'worker'; readonly endpoint: string; readonly worker: string}
	| {readonly kind: 'endpoint'; readonly endpoint: string};

/** A subject with ids, and how messages name it (sanitised). */
export type ResolvedLogSubject = {readonly subject: LogSubject; readonly label: string};

type Resolvers = {
	readonly resolve: (kind: 'endpoint' | 'pod', text: string) => Promise<Named>;
	/** Undefined: the endpoint is gone, or the API publishes no workers. */
	readonly workers: (endpointId: string) => Promise<WorkerList | undefined>;
};

/**
The ids behind names: an endpoint or pod by id or name (as every verb resolves them: exit 4 listing
the candidates); a worker by its id or a prefix only one active worker has. A worker the list does not
show is taken as given (the list can lag; a gone worker's stream answers 404, said then).
*/
export async function resolveLogSubject(names: LogNames, {resolve, workers}: Resolvers): Promise<ResolvedLogSubject> {
	if (names.kind === 'pod') {
		const pod = await resolve('pod', names.pod);
		return {subject: {kind: 'pod', podId: pod.id}, label: `pod ${nameWithId(pod)}`};
	}

	const endpoint = await resolve('endpoint', names.endpoint);
	if (names.kind === 'endpoint') {
		return {subject: {kind: 'endpoint', endpointId: endpoint.id}, label: `endpoint ${nameWithId(endpoint)}`};
	}

	const list = await workers(endpoint.id);
	const matches = list?.workers.filter(worker => worker.id === names.worker || worker.id.startsWith(names.worker)) ?? [];
	const exact = matches.find(worker => worker.id === names.worker);
	if (!exact && matches.length > 1) {
		throw new NotFoundError(
			`worker "${sanitizeLine(names.worker)}" could be ${matches.map(worker => sanitizeLine(worker.id)).join(', ')} of endpoint ${nameWithId(endpoint)}`,
		);
	}

	const workerId = exact?.id ?? matches[0]?.id ?? names.worker;
	return {
		subject: {kind: 'worker', endpointId: endpoint.id, workerId},
		label: `worker ${sanitizeLine(workerId)} of endpoint ${nameWithId(endpoint)}`,
	};
}
