import {mkdtempSync} from 'node:fs';
import {tmpdir} from 'node:os';
import {join} from 'node:path';
import {expect, test} from 'vitest';
import {addToBucket, bucketSummary, emptyBucket} from '../../source/history/bucket.js';
import {openHistoryForWriting} from '../../source/history/history-file.js';
import {createMaintenance} from '../../source/history/maintenance.js';

const minute = Date.parse('2026-11-20T03:00:00Z');

type Sample = {readonly at: number; readonly sid: number; readonly state: string | null; readonly values: Array<number | null>};

/** A random value list: some positions unknown, some lists shorter (a pod that lost a GPU), integers and fractions. */
function randomValues(random: () => number): Array<number | null> {
	const length = 1 + Math.floor(random() * 9);
	return Array.from({length}, () => {
		const roll = random();
		if (roll < 0.15) {
			return null;
		}

		return roll < 0.5 ? Math.floor(random() * 100) : Math.round(random() * 1_000_000) / 1000;
	});
}

/** A small deterministic generator, so a failure can be run again. */
function generator(seed: number): () => number {
	let state = seed;
	return () => {
		state = (state * 1_103_515_245 + 12_345) % 2_147_483_648;
		return state / 2_147_483_648;
	};
}

test('a minute rolled up in SQLite gives what folding its samples in JavaScript gives, series by series', async () => {
	const random = generator(7);
	const directory = mkdtempSync(join(tmpdir(), 'podtop-rollup-'));
	const file = join(directory, 'history', 'account.sqlite');
	const {db} = openHistoryForWriting(file, minute);
	const samples: Sample[] = [];
	// 1,200 series over three slices of the rollup, twelve instants; each series written at some of them.
	for (let instant = 0; instant < 12; instant++) {
		const at = minute + instant * 5000;
		db.prepare('INSERT INTO polls (at, keyframe) VALUES (?, ?)').run(at, instant === 0 ? 1 : 0);
		for (let sid = 1; sid <= 1200; sid++) {
			if (instant === 0 || random() < 0.3) {
				const sample = {at, sid, state: random() < 0.5 ? null : random() < 0.5 ? 'RUNNING' : 'EXITED', values: randomValues(random)};
				samples.push(sample);
				db.prepare('INSERT INTO raw (at, sid, state, v) VALUES (?, ?, ?, ?)').run(at, sid, sample.state, JSON.stringify(sample.values));
			}
		}
	}

	// A poll in the next minute: the recorder has written past this one.
	db.prepare('INSERT INTO polls (at, keyframe) VALUES (?, 1)').run(minute + 60_000);
	await createMaintenance({db, now: () => minute + 120_000}).run();

	const rows = db.prepare('SELECT sid, n, state, vmin, vmean, vmax, vlast FROM minute WHERE at = ? ORDER BY sid').raw().all(minute) as Array<
		[number, number, string | null, string, string, string, string]
	>;
	expect(rows).toHaveLength(1200);
	for (const [sid, n, state, min, mean, max, last] of rows) {
		const own = samples.filter(sample => sample.sid === sid);
		const bucket = emptyBucket();
		for (const sample of own) {
			addToBucket(bucket, sample.at, 1, sample.state ?? undefined, {min: sample.values, mean: sample.values, max: sample.values, last: sample.values});
		}

		const expected = bucketSummary(bucket);
		const newest = own.at(-1)!;
		expect({sid, n, state, min: JSON.parse(min), max: JSON.parse(max), last: JSON.parse(last)}).toEqual({
			sid,
			n: own.length,
			state: newest.state,
			min: expected.min,
			max: expected.max,
			// The newest sample's values as they were written.
			last: newest.values,
		});
		const means = JSON.parse(mean) as Array<number | null>;
		expect(means).toHaveLength(expected.mean.length);
		for (const [index, value] of expected.mean.entries()) {
			if (value === null) {
				expect(means[index]).toBeNull();
			} else {
				// Both round to four places; a value on the half way may round either side of it.
				expect(Math.abs(means[index]! - value)).toBeLessThanOrEqual(1.000_01e-4);
			}
		}
	}

	expect(db.prepare(`SELECT value FROM meta WHERE key = 'rolled_minute'`).raw().get()).toEqual([String(minute)]);
	db.close();
});
