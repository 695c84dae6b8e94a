import type {ChangeLine} from '../api/agent-protocol.js';
import {deepEqual} from '../lib/deep-equal.js';
import type {PodRecord} from '../model/pod.js';

export type PodPacing = {
	/** The events of one store change: those to send now (a pod's runtime figures alone held back, newest kept). */
	readonly take: (events: readonly ChangeLine[], previous: (podId: string) => PodRecord | undefined) => ChangeLine[];
	/** The held pods' events, each pod's newest, and none held any more. */
	readonly flush: () => ChangeLine[];
	readonly held: () => number;
};

/** The same pod but for its runtime's figures (utilisation, uptime), which move at every read of a running pod. */
const onlyRuntimeMoved = (before: PodRecord, after: PodRecord) => deepEqual({...before, runtime: undefined}, {...after, runtime: undefined});

/**
The agent's pace for its clients' pod events: a pod whose only change is its runtime's figures is sent with the
next flush (at the pace a dashboard on its own reads the list: `shownPodListMs`), any other change at once. At
1,000 endpoints + 10,000 pods the agent reads every pod each 5 s and some 8,300 runtimes move each time: 7.2 MB of
events every read to every client, which twenty clients could not read as fast (the agent dropped them, and they
polled on their own: 87 v2 requests a minute, 27 × 429). A held pod's event is always its newest record, so
no older one ever overtakes a newer.
*/
export function createPodPacing(): PodPacing {
	let held = new Map<string, ChangeLine>();
	return {
		take(events, previous) {
			const now: ChangeLine[] = [];
			for (const event of events) {
				if (event.type === 'pod') {
					const record = event.pod as PodRecord;
					const before = previous(record.id);
					if (before && onlyRuntimeMoved(before, record)) {
						held.set(record.id, event);
						continue;
					}

					held.delete(record.id);
				} else if (event.type === 'pod.removed' && typeof event.id === 'string') {
					held.delete(event.id);
				}

				now.push(event);
			}

			return now;
		},
		flush() {
			const events = [...held.values()];
			held = new Map();
			return events;
		},
		held: () => held.size,
	};
}
