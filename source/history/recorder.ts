import type {PodtopStore} from '../store/create-store.js';
import type {PodtopState} from '../store/state.js';
import {emptyBatch, emptyWritten, isEmptyBatch, type Written} from './batch.js';
import {collectChanges, type EventRow} from './changes.js';
import {createDiagnosisRows} from './diagnosis-rows.js';
import {setAsideFuture} from './future-rows.js';
import {isCorruption, isDiskFull, type SqliteDatabase} from './history-file.js';
import type {RecordingState} from './history-types.js';
import {keyframeMs} from './keyframe.js';
import {commitTracked} from './tracked.js';
import {createBatchWriter} from './write-batch.js';
import {createWorkerLists} from './worker-lists.js';
import {recordedWorkerLists} from './recorded-worker-lists.js';

/** A clock that goes back less than this is carried over (each write a millisecond after the last); more, and what was stamped after now is set aside. */
const clockSlackMs = 5000;
/** Events kept for the next write while recording is paused (the newest; how many were let go is written with the resumption). */
export const maxPendingEvents = 1000;

export type Recorder = {
	/** Writes what changed since the last write, now or at `at` (the demo's simulated past). */
	readonly flush: (at?: number) => void;
	/** Adds events to the next write (writes from the audit log, jobs an attached client forwards), with marks kept in the same transaction. */
	readonly record: (events: readonly EventRow[], meta?: ReadonlyMap<string, string>) => void;
	readonly state: () => RecordingState;
	readonly stop: () => void;
};

type Options = {
	readonly store: PodtopStore;
	readonly db: SqliteDatabase;
	readonly file: string;
	readonly now?: () => number;
	/** Called when recording pauses or resumes (disk full, the clock went back), with one line to show. */
	readonly onState?: (state: RecordingState, line: string) => void;
	/** After a failure, how long to wait before trying to write again. */
	readonly retryMs?: number;
	/** Write on changes and every minute on its own (false: only when `flush` is called, as the demo's backfill does). */
	readonly live?: boolean;
	/** The file turned out damaged inside (a write failed on it): the caller moves it aside and starts a new one. Without it, recording pauses. */
	readonly onDamaged?: () => void;
};

const minuteOf = (at: number) => Math.floor(at / keyframeMs);

function copyInto<V>(target: Map<string, V>, source: ReadonlyMap<string, V>): void {
	for (const [key, value] of source) {
		target.set(key, value);
	}
}

/**
The one writer of an account's history: it watches the store and, after each burst of changes
(one poll), writes what changed in one transaction; every thing whole once a minute. It never
holds the poll up: the store's writers only mark it due.
*/
export function createRecorder({store, db, file, now = Date.now, onState, retryMs = 10_000, live = true, onDamaged}: Options): Recorder {
	const writer = createBatchWriter(db);
	let series = writer.loadSeries();
	let written: Written = emptyWritten();
	let lastState: PodtopState | undefined;
	let lastAt = (db.prepare('SELECT max(at) FROM polls').raw().get() as [number | null])[0] ?? 0;
	let lastKeyframeMinute = -1;
	let changedJobs = new Set<string>();
	let extraEvents: EventRow[] = [];
	let extraMeta = new Map<string, string>();
	let state: RecordingState = {state: 'recording', file};
	let retryAt = 0;
	/** Since when recording has been paused, and why (written into the timeline once it resumes). */
	let pausedSince: {readonly at: number; readonly reason: string} | undefined;
	let droppedEvents = 0;
	let due: NodeJS.Immediate | undefined;
	let heartbeat: NodeJS.Timeout | undefined;
	let stopped = false;
	const diagnoses = createDiagnosisRows();
	const workerLists = createWorkerLists(recordedWorkerLists(db));

	const setState = (next: RecordingState, line: string) => {
		state = next;
		onState?.(next, line);
	};

	const pause = (reason: string, at: number) => {
		retryAt = at + retryMs;
		// Never before the last write (a clock gone back): the timeline stays in order.
		pausedSince ??= {at: Math.max(at, lastAt), reason};
		if (state.state !== 'paused') {
			setState({state: 'paused', file, reason}, `history paused: ${reason}; polling carries on, recording resumes on its own`);
		}
	};

	/** A write that failed: paused (the disk is full, say) or, the file being damaged, handed to the caller to set aside. */
	const failed = (error: unknown, at0: number) => {
		if (isDiskFull(error)) {
			pause('the disk is full', at0);
		} else if (isCorruption(error) && onDamaged) {
			onDamaged();
		} else if (isCorruption(error)) {
			pause('the file is damaged', at0);
		} else {
			pause(String(error instanceof Error ? error.message : error), at0);
		}

		// What was not written is written whole at the next keyframe.
		written = emptyWritten();
		lastState = undefined;
		lastKeyframeMinute = -1;
	};

	/**
	The clock is behind the last write by more than the slack: it had gone ahead (a jump of a day, a year, then
	set right), or the file was written by a clock ahead of this one. Now is what the clock says: what was stamped
	after it is set aside, said once and in the timeline, and recording goes on (it does not wait for the clock).
	*/
	const setAsideAfter = (at: number) => {
		const aside = setAsideFuture(db, at);
		series = writer.loadSeries();
		written = emptyWritten();
		lastState = undefined;
		lastKeyframeMinute = -1;
		const ahead = lastAt - at;
		lastAt = aside.lastAt;
		extraEvents.push({type: 'recording.clock', data: {wentBackMs: ahead, setAsidePolls: aside.polls, ...(aside.from ? {from: aside.from, to: aside.to} : {})}});
		onState?.(
			state,
			`history: the clock is ${Math.round(ahead / 1000)} s behind the last write; ${aside.polls} polls stamped after now (up to ${new Date(aside.to ?? ahead).toISOString()}) were set aside, recording goes on`,
		);
	};

	/** The time to write at: never before the last write (a series is never reordered). */
	const timeToWrite = (at: number): number => {
		if (at > lastAt) {
			return at;
		}

		if (lastAt - at < clockSlackMs) {
			return lastAt + 1;
		}

		setAsideAfter(at);
		return Math.max(at, lastAt + 1);
	};

	const flush = (requested?: number) => {
		due = undefined;
		const at0 = requested ?? now();
		if (stopped || (state.state === 'paused' && at0 < retryAt)) {
			return;
		}

		let at: number;
		try {
			at = timeToWrite(at0);
		} catch (error) {
			failed(error, at0);
			return;
		}

		const next = store.getState();
		const keyframe = minuteOf(at) !== lastKeyframeMinute;
		const jobs = changedJobs;
		const {batch, pending} =
			lastState === next && !keyframe
				? {batch: emptyBatch(), pending: undefined}
				: collectChanges(lastState, next, jobs, {keyframe, known: thing => series.get(thing), written});
		// The diagnoses and worker lists compare with what they last wrote (not the last state: a write that failed is told again).
		const diagnosed = diagnoses(lastState, next, at);
		const listed = workerLists(lastState, next);
		batch.events.push(...diagnosed.events, ...listed.events, ...extraEvents);
		if (pausedSince) {
			// The gap, said in the timeline: when it paused and why, and that it resumed (with any events let go meanwhile).
			batch.events.push(
				{at: pausedSince.at, type: 'recording.paused', data: {reason: pausedSince.reason}},
				{type: 'recording.resumed', data: {pausedAt: pausedSince.at, ...(droppedEvents > 0 ? {droppedEvents} : {})}},
			);
		}

		for (const [key, value] of extraMeta) {
			batch.meta.set(key, value);
		}

		if (isEmptyBatch(batch)) {
			return;
		}

		try {
			writer.write(batch, at, keyframe, series);
		} catch (error) {
			failed(error, at0);
			return;
		}

		lastAt = at;
		lastState = next;
		diagnosed.commit();
		listed.commit();
		changedJobs = new Set();
		extraEvents = [];
		extraMeta = new Map();
		pausedSince = undefined;
		droppedEvents = 0;
		// A keyframe is the whole account written: one with no sample (endpoints listed before their health came in, a
		// recorder's first lists) wrote none, and the next write is the keyframe instead; else the moments until the next minute
		// had no keyframe to read from (a gap at every recorder's start on a new file).
		if (keyframe && batch.samples.size > 0) {
			lastKeyframeMinute = minuteOf(at);
		}

		if (pending) {
			copyInto(written.samples, pending.samples);
			copyInto(written.jobStatus, pending.jobStatus);
			commitTracked(pending.things, pending.thingCount);
			// Back one day, a thing starts afresh (its series is found again, and revived).
			for (const [things, id] of pending.gone) {
				things.delete(id);
			}
		}

		if (state.state === 'paused') {
			setState({state: 'recording', file}, 'history recording resumed');
		}
	};

	const schedule = () => {
		if (!stopped && live) {
			due ??= setImmediate(flush);
		}
	};

	const unsubscribe = store.subscribe((next, previous) => {
		if (next.jobs !== previous.jobs) {
			for (const key of next.jobs.changed) {
				changedJobs.add(key);
			}
		}

		schedule();
	});

	// Once a minute on its own, while the data is fresh: a quiet account still has a keyframe to show.
	const beat = () => {
		const {connection} = store.getState();
		if (connection.jobApi.staleSince === undefined || connection.graphql.staleSince === undefined) {
			flush();
		}

		heartbeat = setTimeout(beat, keyframeMs - (now() % keyframeMs) + 50);
		heartbeat.unref();
	};

	if (live) {
		heartbeat = setTimeout(beat, keyframeMs - (now() % keyframeMs) + 50);
		heartbeat.unref();
	}

	return {
		flush,
		record(events, meta) {
			extraEvents.push(...events);
			// Paused for long (a full disk), the newest events are kept and the rest counted, not held without end.
			if (extraEvents.length > maxPendingEvents) {
				droppedEvents += extraEvents.length - maxPendingEvents;
				extraEvents = extraEvents.slice(-maxPendingEvents);
			}

			for (const [key, value] of meta ?? []) {
				extraMeta.set(key, value);
			}

			schedule();
		},
		state: () => state,
		stop() {
			if (stopped) {
				return;
			}

			// What is due is written before letting go.
			if (due) {
				clearImmediate(due);
				flush();
			}

			stopped = true;
			unsubscribe();
			clearTimeout(heartbeat);
		},
	};
}
