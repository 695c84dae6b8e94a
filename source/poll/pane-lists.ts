import {describeError, keyRefusalStatus} from '../api/errors.js';
import type {PodRecord, PodSummary} from '../model/pod.js';
import type {PodtopStore, StoreWrites} from '../store/create-store.js';
import type {PaneName} from '../store/types.js';
import {shownPodListMs, type Cadence} from './cadence.js';
import {createLoop} from './loop.js';
import {createPodsOnScreen} from './pods-on-screen.js';
import type {ScheduledApi} from './scheduled-api.js';
import type {Priority} from './scheduler.js';

type Options = {
	readonly store: PodtopStore;
	readonly writes: StoreWrites;
	readonly api: ScheduledApi;
	readonly cadence: Cadence;
	readonly allVisible: boolean;
	readonly visible: (pane: PaneName) => boolean;
	readonly priority: (pane: PaneName) => Priority;
	readonly now: () => number;
};

/**
The GraphQL lists behind the Pods and GPUs panes: each at its pane's cadence (slower while hidden),
the pods in full only while their pane is shown, and a pane shown polled at its own cadence at once.
*/
export function createPaneLists({store, writes, api, cadence, allVisible, visible, priority, now}: Options) {
	/** A GraphQL list behind one pane: fetched at the pane's cadence (slower while hidden), written whole. */
	const listLoop = <T>({
		pane,
		fetch,
		write,
		visibleMs,
		hiddenMs,
	}: {
		readonly pane: PaneName;
		readonly fetch: (priority: Priority) => Promise<T>;
		readonly write: (value: T, at: number) => void;
		readonly visibleMs: () => number;
		readonly hiddenMs: () => number;
	}) =>
		createLoop(
			async () => {
				try {
					write(await fetch(priority(pane)), now());
					writes.reportSource('graphql', now());
				} catch (error) {
					writes.reportSource('graphql', now(), describeError(error), keyRefusalStatus(error));
				}
			},
			() => (visible(pane) ? visibleMs() : hiddenMs()),
		);

	/**
	The Pods pane reads every field; hidden, only what the header, alerts and resume read is asked for,
	after one full list at start (so the pane never opens on rows of summaries).
	*/
	let podsLastFetched: 'nothing' | 'full' | 'summaries' = 'nothing';
	const podsInFull = () => allVisible || store.getState().focus === 'pods' || podsLastFetched === 'nothing';
	/** A list of thousands of pods is fetched less often (its parse, merge and record grow with it): `perPodMs` a pod, from `leastMs` to the stalest bound. */
	const byLength = (leastMs: number, perPodMs: number) => Math.min(cadence.healthStalestMs, Math.max(leastMs, store.getState().pods.order.length * perPodMs));
	/**
	Shown, `podListMsPerPod` a pod, its rows on screen at the pane's cadence by id (podsOnScreen) where the API
	reads pods apart from the list (GraphQL). Over REST v2 the rows on screen cost the whole list, so they come
	with it: at 500 + 2,000 a 3 MB list parsed every 5 s for 34 rows made the dashboard's main thread twice
	as busy as GraphQL's (2.5 s of 30 against 1.5, at load 15). The dashboard only: `watch` and the agent keep
	every pod at the cadence.
	*/
	const podsShownMs = () => (allVisible ? cadence.podsMs : shownPodListMs(cadence, store.getState().pods.order.length));
	// Hidden, less often still (6 ms a pod).
	const podsHiddenMs = () => byLength(cadence.podsHiddenMs, 6);
	const podsLoop = listLoop({
		pane: 'pods',
		fetch: async (listPriority): Promise<{readonly full: PodRecord[]} | {readonly summaries: PodSummary[]}> =>
			podsInFull() ? {full: await api.pods(listPriority)} : {summaries: await api.podSummaries(listPriority)},
		write(list, at) {
			if ('full' in list) {
				writes.setPods(list.full, at);
				podsOnScreen.listWritten(at);
				podsLastFetched = 'full';
			} else {
				writes.setPodSummaries(list.summaries, at);
				podsLastFetched = 'summaries';
			}
		},
		visibleMs: podsShownMs,
		hiddenMs: podsHiddenMs,
	});
	const podsOnScreen = createPodsOnScreen({
		writes,
		api,
		cadence,
		wanted: () => !allVisible && visible('pods') && podsShownMs() > cadence.podsMs && api.readsPodsApart(),
		onGone: podsLoop.trigger,
		now,
	});
	const gpusLoop = listLoop({
		pane: 'gpus',
		fetch: api.gpuTypes,
		write: writes.setGpuTypes,
		visibleMs: () => cadence.gpusMs,
		hiddenMs: () => cadence.gpusHiddenMs,
	});
	/**
	The pane on screen changed: pods shown after a summary are fetched in full at once; otherwise each
	list waits out its new cadence from its last poll (a shown pane's is shorter, a hidden one's longer).
	*/
	const onFocus = (pane: PaneName) => {
		if (pane === 'pods' && podsLastFetched === 'summaries') {
			podsLoop.trigger();
		} else {
			podsLoop.reschedule();
		}

		gpusLoop.reschedule();
		podsOnScreen.loop.reschedule();
	};

	return {podsLoop, podsOnScreen, gpusLoop, onFocus};
}
