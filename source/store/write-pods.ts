import type {PodRecord, PodSummary} from '../model/pod.js';
import {appendBounded} from '../lib/bounded.js';
import {deepEqual} from '../lib/deep-equal.js';
import {shareEqual} from '../lib/share-equal.js';
import {mergeRecords} from './merge-records.js';
import {meanGpuUtil} from './pod-figures.js';
import {withSummary} from './pod-summary.js';
import type {Collection, GetState, SetState} from './state.js';
import type {PodState} from './types.js';

/** Samples kept per GPU of the open pod (its view draws them wide). */
export const utilHistoryLimit = 60;
/** Samples kept per pod in the list: the width of its UTIL HISTORY column, no more (10,000 pods keep one each). */
export const listUtilHistoryLimit = 12;

export type PodWrites = {
	readonly setPods: (records: readonly PodRecord[], at: number) => void;
	/** The pod list as the summary query saw it (Pods pane hidden): each laid over the pod's last full record. */
	readonly setPodSummaries: (summaries: readonly PodSummary[], at: number) => void;
	/** One pod as a write answered it (stopped, resumed, deployed): shown at once, before the next poll. */
	readonly updatePod: (record: PodRecord, at: number) => void;
	/** Some of the list's pods as a fresher read saw them (the rows on screen); the others and the order stay. */
	readonly updatePods: (records: readonly PodRecord[], at: number) => void;
	/** A terminated pod leaves the list at once. */
	readonly removePod: (podId: string, at: number) => void;
	/** The open pod's details (undefined closes them); each GPU's history grows by one sample. */
	readonly setPodDetail: (podId: string | undefined, record: PodRecord | null, at: number) => void;
};

/** A pod's state from its record: the list's utilisation history grows by its mean GPU use. */
function podState(record: PodRecord, previous: PodState | undefined): PodState {
	const util = meanGpuUtil(record);
	return {
		record,
		utilHistory: util === undefined ? (previous?.utilHistory ?? []) : appendBounded(previous?.utilHistory ?? [], util, listUtilHistoryLimit),
	};
}

/** The states by id, copied key by key in the list's order (an object spread of thousands of keys is slower, a list of pairs allocates more). */
function copyById(pods: Collection<PodState>): Record<string, PodState> {
	const byId: Record<string, PodState> = {};
	for (const id of pods.order) {
		const state = pods.byId[id];
		if (state) {
			byId[id] = state;
		}
	}

	return byId;
}

export function podWrites(set: SetState, get: GetState): PodWrites {
	const current = () => {
		const {pods} = get();
		return pods.order.flatMap(id => {
			const pod = pods.byId[id];
			return pod ? [pod.record] : [];
		});
	};

	const writes: PodWrites = {
		setPodDetail(podId, record, at) {
			const previous = get().podDetail;
			if (podId === undefined) {
				if (previous) {
					set({podDetail: undefined});
				}

				return;
			}

			const same = previous?.podId === podId;
			if (same && deepEqual(previous.record, record)) {
				return;
			}

			const gpus = record?.runtime?.gpus ?? [];
			const gpuHistory = gpus.map((gpu, index) => {
				const before = same ? previous.gpuHistory[index] : undefined;
				return {
					util: appendBounded(before?.util ?? [], gpu?.gpuUtilPercent ?? 0, utilHistoryLimit),
					memory: appendBounded(before?.memory ?? [], gpu?.memoryUtilPercent ?? 0, utilHistoryLimit),
				};
			});
			set({podDetail: {podId, record, updatedAt: at, gpuHistory}});
		},
		updatePod(record, at) {
			const records = current();
			const index = records.findIndex(each => each.id === record.id);
			writes.setPods(index === -1 ? [...records, record] : records.with(index, record), at);
		},
		updatePods(records, at) {
			// A few pods of thousands (the rows on screen): the others, their order and their states stay as they are, with no
			// list of all records made and merged again (each second a row fell due, that was the pane's largest allocation).
			const {pods} = get();
			let byId: Record<string, PodState> | undefined;
			for (const record of records) {
				const previous = pods.byId[record.id];
				if (!previous || shareEqual(previous.record, record)) {
					continue;
				}

				byId ??= copyById(pods);
				byId[record.id] = podState(record, previous);
			}

			if (byId) {
				set({pods: {byId, order: pods.order, updatedAt: at, listedBy: pods.listedBy}});
			}
		},
		removePod(podId, at) {
			writes.setPods(
				current().filter(record => record.id !== podId),
				at,
			);
		},
		setPodSummaries(summaries, at) {
			const {byId} = get().pods;
			writes.setPods(
				summaries.map(summary => withSummary(byId[summary.id]?.record, summary)),
				at,
			);
		},
		setPods(records, at) {
			const pods = mergeRecords<PodRecord, PodState>(get().pods, records, at, podState, get().listSource);
			if (pods) {
				set({pods});
			}
		},
	};
	return writes;
}
