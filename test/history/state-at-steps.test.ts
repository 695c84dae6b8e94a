import {mkdtempSync, rmSync} from 'node:fs';
import {tmpdir} from 'node:os';
import {join} from 'node:path';
import {afterEach, describe, expect, test} from 'vitest';
import type {PodRecord} from '../../source/model/pod.js';
import {openHistoryForReading, openHistoryForWriting} from '../../source/history/history-file.js';
import type {PastAccount} from '../../source/history/history-types.js';
import {createMaintenance} from '../../source/history/maintenance.js';
import {createRecorder} from '../../source/history/recorder.js';
import {createSqliteReader} from '../../source/history/sqlite-reader.js';
import {createPodtopStore} from '../../source/store/create-store.js';

const start = Date.parse('2026-11-20T03:00:00Z');

/** A small pseudo-random sequence (the same each run). */
function random(seed: number) {
	let state = seed;
	return (below: number) => {
		state = (state * 1_103_515_245 + 12_345) % 2_147_483_648;
		return state % below;
	};
}

const pod = (id: string, util: number, image: string, status = 'RUNNING'): PodRecord => ({
	id,
	name: `pod ${id}`,
	imageName: image,
	desiredStatus: status,
	costPerHr: 1.25,
	gpuCount: 1,
	runtime: status === 'RUNNING' ? {gpus: [{gpuUtilPercent: util, memoryUtilPercent: 30}], container: {cpuPercent: 5, memoryPercent: 10}} : null,
});

/** What a past account shows, whole (the pods' states made, each as the record and history it reads as: a past pod makes its record when first read). */
const shown = (account: PastAccount | undefined) =>
	account && {
		...account,
		pods: {
			...account.pods,
			byId: Object.fromEntries(Object.entries(account.pods.byId).map(([key, {record, utilHistory}]) => [key, {record, utilHistory}])),
		},
	};

let cleanups: Array<() => void> = [];
afterEach(() => {
	for (const cleanup of cleanups) {
		cleanup();
	}

	cleanups = [];
});

/** A new history file with its recorder and reader, over a store of its own, on the clock `now`; removed after the test. */
function recordedFile(now: () => number) {
	const directory = mkdtempSync(join(tmpdir(), 'podtop-steps-'));
	const file = join(directory, 'account.sqlite');
	const {store, writes} = createPodtopStore({mode: 'live', apiHost: 'example', keyFingerprint: '••••abcd'});
	const {db} = openHistoryForWriting(file, start);
	const recorder = createRecorder({store, db, file, now, live: false});
	const reader = createSqliteReader({db, file, ownsDatabase: false});
	cleanups.push(() => {
		recorder.stop();
		db.close();
		rmSync(directory, {recursive: true, force: true});
	});
	return {file, writes, db, recorder, reader};
}

describe('the account at a moment, stepped through time', () => {
	test('each step over a reader that keeps what it read equals the account read afresh, and each thing its newest sample since the keyframe', async () => {
		let now = start;
		const {file, writes, db, recorder, reader} = recordedFile(() => now);
		const next = random(23);
		writes.setEndpoints(
			[
				{id: 'ep1', name: 'llama', workersMin: 0, workersMax: 3},
				{id: 'ep2', name: 'flux', workersMin: 1, workersMax: 2},
			],
			start,
		);
		/** Polls every 5 s up to `until`: pods come, change, stop and go; some polls change little or nothing. */
		const live = new Map<string, {util: number; image: string; status: string}>();
		let made = 0;
		const record = (until: number) => {
			for (; now <= until; now += 5000) {
				const roll = next(10);
				if (roll === 0 || live.size < 3) {
					live.set(`p${++made}`, {util: next(100), image: 'runpod/pytorch', status: 'RUNNING'});
				}

				const ids = [...live.keys()];
				if (roll === 1 && ids.length > 3) {
					live.delete(ids[next(ids.length)]!);
				}

				for (const [id, thing] of live) {
					// Most polls move some pods' use; now and then one stops, starts again or changes image (a new record).
					const change = next(8);
					if (change < 3 && thing.status === 'RUNNING') {
						thing.util = next(100);
					} else if (change === 3) {
						thing.status = thing.status === 'RUNNING' ? 'EXITED' : 'RUNNING';
					} else if (change === 4 && next(4) === 0) {
						thing.image = `runpod/pytorch:${next(9)}`;
					}

					live.set(id, thing);
				}

				writes.setPods(
					[...live].map(([id, {util, image, status}]) => pod(id, util, image, status)),
					now,
				);
				if (next(3) === 0) {
					writes.setHealth(
						`ep${1 + next(2)}`,
						{
							jobs: {inQueue: next(20), inProgress: 1, completed: now / 1000, failed: 0, retried: 0},
							workers: {running: next(3), idle: 0, initializing: 0, ready: 1, throttled: 0, unhealthy: 0},
						},
						now,
					);
				}

				recorder.flush(now);
			}
		};

		record(start + 20 * 60_000);
		await createMaintenance({db, now: () => now}).run();
		const fresh = async (at: number) => {
			const other = openHistoryForReading(file)!;
			try {
				return shown(await createSqliteReader({db: other, file, ownsDatabase: false}).stateAt(at));
			} finally {
				other.close();
			}
		};

		const oracle = db.prepare(
			`SELECT s.key, r.v FROM raw r JOIN series s ON s.id = r.sid WHERE s.kind = 'pod' AND r.at BETWEEN (SELECT max(at) FROM polls WHERE keyframe = 1 AND at <= ?1) AND ?1 AND r.at = (SELECT max(at) FROM raw x WHERE x.sid = r.sid AND x.at <= ?1) ORDER BY s.id`,
		);
		const deletedAt = db.prepare(`SELECT deleted_at FROM series WHERE kind = 'pod' AND key = ?`).raw();
		/** Each pod live at the moment and its first GPU's use, as the oracle finds them. */
		const expectedPods = (moment: number) =>
			(oracle.raw().all(moment) as Array<[string, string]>).flatMap(([key, text]) => {
				const values = JSON.parse(text) as number[];
				const gone = (deletedAt.get(key) as [number | null])[0];
				return gone !== null && gone <= moment ? [] : [[key, values[2] === 1 ? values[5] : undefined]];
			});
		let at = now - 5000;
		let compared = 0;
		for (let step = 0; step < 60; step++) {
			// Back and forth by the steps the cursor takes (a window's step, ten of them, a jump), off the polls' instants too.
			const move = [-60_000, 60_000, -5000, 5000, -600_000, -1000 * next(900), 1000 * next(300)][next(7)]!;
			at = Math.max(start - 30_000, Math.min(now + 30_000, at + move));
			if (step % 10 === 9) {
				// The recorder goes on writing meanwhile (things new, gone, records changed): what the reader keeps must follow.
				record(now + 120_000);
				at = now - 1000 * next(60);
			}

			const stepped = shown(await reader.stateAt(at));
			expect(stepped).toEqual(await fresh(at));
			// With the pods on screen they are read with the rest; else their values when first asked (the Endpoints pane never does): the same account.
			expect(shown(reader.stateAtNow!(at, {pods: step % 2 === 0}))).toEqual(stepped);
			const account = await reader.stateAt(at);
			if (account?.tier === 'raw') {
				compared++;
				expect(account.pods.order.map(key => [key, account.pods.byId[key]?.record.runtime?.gpus?.[0]?.gpuUtilPercent])).toEqual(expectedPods(at));
			}
		}

		expect(compared).toBeGreaterThan(20);
	});
});

test('a pod with the same status, values and record as at the moment read before keeps its state (the Pods pane keeps its row); a changed one is made anew', () => {
	let now = start;
	const {writes, recorder, reader} = recordedFile(() => now);
	// Five polls a minute apart (a keyframe between each): p1's use moves, p2 stays as it is, p3 stops at the third.
	for (let poll = 0; poll < 5; poll++) {
		writes.setPods([pod('p1', 10 * poll, 'img'), pod('p2', 50, 'img'), pod('p3', 70, 'img', poll < 2 ? 'RUNNING' : 'EXITED')], now);
		recorder.flush(now);
		now += 60_000;
	}

	const podsAt = (moment: number, pods: boolean) => reader.stateAtNow!(moment, {pods})!.pods.byId;
	for (const pods of [true, false]) {
		const first = podsAt(start + 1000, pods);
		const second = podsAt(start + 61_000, pods);
		expect(second.p2).toBe(first.p2);
		expect(second.p3).toBe(first.p3);
		expect(second.p1).not.toBe(first.p1);
		expect(second.p1?.record.runtime?.gpus?.[0]?.gpuUtilPercent).toBe(10);
		const third = podsAt(start + 121_000, pods);
		expect(third.p2).toBe(first.p2);
		expect(third.p3).not.toBe(second.p3);
		expect(third.p3?.record.desiredStatus).toBe('EXITED');
	}
});
