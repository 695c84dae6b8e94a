import type {ChangeLine, TickLine} from '../api/agent-protocol.js';
import type {EndpointRecord} from '../model/endpoint.js';
import type {GpuTypeRecord} from '../model/gpu-type.js';
import type {PodRecord} from '../model/pod.js';
import type {Health} from '../api/job-types.js';
import type {PodtopStore, StoreWrites} from '../store/create-store.js';
import type {HealthResult} from '../store/write-endpoints.js';
import {balanceOf} from '../store/account-snapshot.js';
import {readFedWorkers} from '../store/fed-workers.js';
import {probeOf} from '../store/probe-of.js';
import type {ConnectionState, SourceName} from '../store/types.js';
import type {EndpointWorkers} from '../store/worker-track.js';

/** What an agent sends but answers: ticks and change events. */
type Event = ChangeLine | TickLine;

const isRecord = (value: unknown): value is Record<string, unknown> => typeof value === 'object' && value !== null && !Array.isArray(value);
const withId = <T>(value: unknown): value is T & {readonly id: string} => isRecord(value) && typeof value.id === 'string';
const timeOf = (event: Event) => (typeof event.at === 'string' ? Date.parse(event.at) : Number.NaN) || Date.now();

/** A poll source's state off the wire: its known fields, of their types. */
function connectionOf(value: unknown): ConnectionState | undefined {
	if (!isRecord(value)) {
		return undefined;
	}

	const number = (name: string) => (typeof value[name] === 'number' ? {[name]: value[name]} : {});
	return {
		...number('lastSuccessAt'),
		...number('lastErrorAt'),
		...number('staleSince'),
		...(typeof value.lastError === 'string' ? {lastError: value.lastError} : {}),
	};
}

/** A collection's records in order, with some changed, some removed and new ones at the end. */
function merged<R extends {readonly id: string}>(current: readonly R[], changed: ReadonlyMap<string, R>, removed: ReadonlySet<string>): R[] {
	const records = current.filter(record => !removed.has(record.id)).map(record => changed.get(record.id) ?? record);
	const known = new Set(current.map(record => record.id));
	return [...records, ...[...changed.values()].filter(record => !known.has(record.id))];
}

/**
The change events an agent sent in one read, written to the store the way its own pollers would
have: one write per kind of data (10,000 pod events must not be 10,000 writes). What is not of a
known shape is skipped; the feed's snapshot is what makes the store whole.
*/
export function applyAgentEvents(events: readonly Event[], store: PodtopStore, writes: StoreWrites): void {
	const state = store.getState();
	let order: readonly string[] | undefined;
	const endpoints = new Map<string, EndpointRecord>();
	const health = new Map<number, HealthResult[]>();
	const pods = new Map<string, PodRecord>();
	const podsRemoved = new Set<string>();
	const gpus = new Map<string, GpuTypeRecord>();
	const probes: Array<NonNullable<ReturnType<typeof probeOf>>> = [];
	const workers = new Map<string, EndpointWorkers | null>();
	let at = 0;
	for (const event of events) {
		at = Math.max(at, timeOf(event));
		switch (event.type) {
			case 'endpoints': {
				order = Array.isArray(event.ids) ? event.ids.filter(id => typeof id === 'string') : undefined;
				break;
			}

			case 'endpoint': {
				if (withId<EndpointRecord>(event.endpoint)) {
					endpoints.set(event.endpoint.id, event.endpoint);
				}

				break;
			}

			case 'health':
			case 'health.error': {
				if (typeof event.endpointId === 'string') {
					const when = typeof event.healthAt === 'number' ? event.healthAt : timeOf(event);
					const result: HealthResult = isRecord(event.health)
						? {endpointId: event.endpointId, health: event.health as Health}
						: {endpointId: event.endpointId, error: typeof event.error === 'string' ? event.error : 'unknown error'};
					health.set(when, [...(health.get(when) ?? []), result]);
				}

				break;
			}

			case 'pod': {
				if (withId<PodRecord>(event.pod)) {
					pods.set(event.pod.id, event.pod);
				}

				break;
			}

			case 'pod.removed': {
				if (typeof event.id === 'string') {
					podsRemoved.add(event.id);
				}

				break;
			}

			case 'gpu': {
				if (withId<GpuTypeRecord>(event.gpuType)) {
					gpus.set(event.gpuType.id, event.gpuType);
				}

				break;
			}

			case 'probe': {
				// The agent's probes: checked field by field, as a recorded one is.
				const probe = isRecord(event.probe) ? probeOf(event.probe.at, event.endpointId, event.probe) : undefined;
				if (probe) {
					probes.push(probe);
				}

				break;
			}

			case 'workers': {
				// The agent's read of an endpoint's workers (null: it let them go), applied in order with the rest.
				if (typeof event.endpointId === 'string' && event.endpointId !== '') {
					const list = event.workers === null ? null : readFedWorkers(event.endpointId, event.workers);
					if (list !== undefined) {
						workers.set(event.endpointId, list);
					}
				}

				break;
			}

			case 'balance': {
				const balance = balanceOf(event.balance);
				if (balance) {
					writes.setBalance(balance);
				}

				break;
			}

			case 'discount': {
				writes.setDiscount(isRecord(event.discount) ? event.discount : undefined);
				break;
			}

			case 'tick': {
				for (const source of ['jobApi', 'graphql'] as const satisfies readonly SourceName[]) {
					const connection = isRecord(event.connection) ? connectionOf(event.connection[source]) : undefined;
					if (connection) {
						writes.setConnection(source, connection);
					}
				}

				break;
			}

			default:
			// `connection` is carried whole by the ticks; other kinds are not the account's.
		}
	}

	if (order !== undefined || endpoints.size > 0) {
		const ids = order ?? state.endpoints.order;
		writes.setEndpoints(
			ids.flatMap(id => {
				const record = endpoints.get(id) ?? state.endpoints.byId[id]?.record;
				return record ? [record] : [];
			}),
			at,
		);
	}

	for (const [when, results] of health) {
		writes.setHealthResults(results, when);
	}

	writes.addProbes(probes);

	for (const [endpointId, list] of workers) {
		writes.setFedWorkers(endpointId, list ?? undefined);
	}

	if (pods.size > 0 || podsRemoved.size > 0) {
		writes.setPods(
			merged(
				state.pods.order.map(id => state.pods.byId[id]!.record),
				pods,
				podsRemoved,
			),
			at,
		);
	}

	if (gpus.size > 0) {
		writes.setGpuTypes(
			merged(
				state.gpus.order.map(id => state.gpus.byId[id]!.record),
				gpus,
				new Set(),
			),
			at,
		);
	}
}

/**
The workers an agent's snapshot carries (an older agent's carries none): the fed lists of the last attachment are replaced by these,
each checked as a `workers` event is.
*/
export function adoptFedWorkers(value: unknown, store: PodtopStore, writes: StoreWrites): void {
	const sent = isRecord(value) ? value : {};
	for (const endpointId of Object.keys(store.getState().workers.fed ?? {})) {
		if (!Object.hasOwn(sent, endpointId)) {
			writes.setFedWorkers(endpointId, undefined);
		}
	}

	for (const [endpointId, list] of Object.entries(sent)) {
		const workers = readFedWorkers(endpointId, list);
		if (workers) {
			writes.setFedWorkers(endpointId, workers);
		}
	}
}
