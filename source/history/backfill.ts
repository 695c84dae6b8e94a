import {createPodtopStore, type PodtopStore, type StoreWrites} from '../store/create-store.js';
import type {SqliteDatabase} from './history-file.js';
import {createRecorder} from './recorder.js';

/**
What a backfill writes the past through: a store of its own (never the live one, which must not show
the past as the present), its writers, and the flush that records it at a past moment.
*/
export type BackfillTarget = {
	readonly store: PodtopStore;
	readonly writes: StoreWrites;
	/** Records what changed in `store` since the last flush, at `at` (which must move forward). */
	readonly flush: (at: number) => void;
};

/** Writes a span of the past into the history before live recording starts (the demo's simulated hours). */
export type Backfill = (target: BackfillTarget, signal: AbortSignal) => Promise<void>;

type Options = {
	readonly fill: Backfill;
	/** The live store: the past's store takes its mode, host and key fingerprint, nothing else. */
	readonly store: PodtopStore;
	readonly db: SqliteDatabase;
	readonly file: string;
	readonly now: () => number;
	readonly log: (line: string) => void;
	readonly signal: AbortSignal;
};

/**
Runs a backfill: a store of its own, fed by the backfill through the real store writers, and a
recorder of its own over the same file that writes only when flushed, at the moment it is given.
The live recorder starts after it (it reads the series the past created from the file).
*/
export async function recordPast({fill, store, db, file, now, log, signal}: Options): Promise<void> {
	const {mode, apiHost, keyFingerprint, profile} = store.getState();
	const past = createPodtopStore({mode, apiHost, keyFingerprint, profile});
	const recorder = createRecorder({
		store: past.store,
		db,
		file,
		now,
		live: false,
		onState(_state, line) {
			log(line);
		},
	});
	try {
		await fill(
			{
				store: past.store,
				writes: past.writes,
				flush(at) {
					recorder.flush(at);
				},
			},
			signal,
		);
	} finally {
		recorder.stop();
	}
}
