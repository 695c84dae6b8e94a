import {mkdtempSync, rmSync} from 'node:fs';
import {tmpdir} from 'node:os';
import {join} from 'node:path';
import {afterEach, describe, expect, test} from 'vitest';
import type {GpuTypeRecord} from '../../source/model/gpu-type.js';
import type {PodRecord} from '../../source/model/pod.js';
import {comparableLists} from '../../source/history/comparable-lists.js';
import {openHistoryForWriting} from '../../source/history/history-file.js';
import {createRecorder} from '../../source/history/recorder.js';
import {createSqliteReader} from '../../source/history/sqlite-reader.js';
import {accountSnapshot} from '../../source/store/account-snapshot.js';
import {createPodtopStore} from '../../source/store/create-store.js';

// A minute's start plus 1 s: the first write is the minute's keyframe.
const start = Date.parse('2026-11-20T03:00:01Z');

const pod = (id: string, util = 50): PodRecord => ({
	id,
	name: `pod-${id}`,
	imageName: 'runpod/pytorch',
	desiredStatus: 'RUNNING',
	costPerHr: 2.49,
	gpuCount: 1,
	runtime: {uptimeInSeconds: 100, gpus: [{gpuUtilPercent: util, memoryUtilPercent: 40}], container: {cpuPercent: 10, memoryPercent: 20}},
});

const gpu = (id: string, stock = 'High'): GpuTypeRecord => ({id, displayName: `GPU ${id}`, memoryInGb: 80, lowestPrice: {stockStatus: stock}});

/** A picture as it comes over the agent's socket (JSON: undefined fields dropped). */
// eslint-disable-next-line unicorn/prefer-structured-clone -- not a copy: what JSON keeps of it
const overTheWire = <T>(value: T): T => JSON.parse(JSON.stringify(value)) as T;

let cleanups: Array<() => void> = [];
afterEach(() => {
	for (const cleanup of cleanups) {
		cleanup();
	}

	cleanups = [];
});

/** A dashboard's store and recorder, and an agent's store whose picture it adopts (as the feed does). */
function setup() {
	const directory = mkdtempSync(join(tmpdir(), 'podtop-hand-over-'));
	const file = join(directory, 'history.sqlite');
	const options = {mode: 'live', apiHost: 'example', keyFingerprint: '••••abcd'} as const;
	const {store, writes} = createPodtopStore(options);
	const {db} = openHistoryForWriting(file, start);
	let now = start;
	const recorder = createRecorder({store, db, file, now: () => now, live: false});
	const reader = createSqliteReader({db, file, ownsDatabase: false});
	cleanups.push(() => {
		db.close();
		rmSync(directory, {recursive: true, force: true});
	});
	return {
		store,
		writes,
		reader,
		/** A new agent: its own store, listing nothing until told to. */
		agent: () => createPodtopStore(options),
		/** Ten seconds on, then a flush. */
		flush() {
			now += 10_000;
			recorder.flush(now);
			return now;
		},
		/** The subjects of the deletions written, in order of their ids. */
		deleted: async () =>
			(await reader.events(0, now + 1))
				.filter(event => event.type === 'deleted')
				.map(event => event.subject ?? '')
				.toSorted((a, b) => a.localeCompare(b)),
	};
}

describe('a deletion is inferred only from two complete lists of one source in a row', () => {
	test('the rule: both lists came in, and one source made both', () => {
		const listed = {byId: {}, order: [], updatedAt: start, listedBy: 'direct'};
		expect(comparableLists(undefined, listed)).toBe(false);
		expect(comparableLists({byId: {}, order: []}, listed)).toBe(false);
		expect(comparableLists(listed, {byId: {}, order: [], listedBy: 'direct'})).toBe(false);
		expect(comparableLists(listed, {...listed, listedBy: 'agent 1'})).toBe(false);
		expect(comparableLists(listed, {...listed, updatedAt: start + 5000})).toBe(true);
	});

	test('attaching to an agent that has listed nothing yet, its first lists, and going back to polling write no deletion; two lists of one source in a row that lack a thing do', async () => {
		const history = setup();
		const {writes, store} = history;
		writes.setEndpoints([{id: 'ep1', name: 'llama'}], start);
		writes.setPods([pod('p1'), pod('p2'), pod('p3')], start);
		writes.setGpuTypes([gpu('h100'), gpu('a100'), gpu('l4')], start);
		const polledAt = history.flush();

		// An agent just started: its picture has endpoints, but neither pods nor GPU types listed yet.
		const agent = history.agent();
		agent.writes.setEndpoints([{id: 'ep1', name: 'llama'}], polledAt);
		writes.adoptAccount(overTheWire(accountSnapshot(agent.store.getState())));
		writes.setVia('agent');
		const attachedAt = history.flush();
		expect(await history.deleted()).toEqual([]);

		// Its first lists: p3 went meanwhile, a100 is missing from this one list only. Neither is deleted on one list's word.
		writes.setPods([pod('p1'), pod('p2')], attachedAt);
		writes.setGpuTypes([gpu('h100'), gpu('l4')], attachedAt);
		history.flush();
		expect(await history.deleted()).toEqual([]);

		// Its next lists: p3 is still missing (deleted now), a100 is back (never deleted); p2 goes between two lists (deleted).
		writes.setPods([pod('p1', 60)], attachedAt + 5000);
		writes.setGpuTypes([gpu('h100', 'Low'), gpu('a100'), gpu('l4')], attachedAt + 5000);
		const seenAt = history.flush();
		expect(await history.deleted()).toEqual(['p2', 'p3']);

		// The agent goes: this process polls again, and its first list lacks what the agent's had (l4, stale there).
		writes.setVia('direct');
		expect(store.getState().listSource).toBe('direct');
		writes.setGpuTypes([gpu('h100', 'Low'), gpu('a100')], seenAt);
		writes.setPods([pod('p1', 60)], seenAt);
		history.flush();
		expect(await history.deleted()).toEqual(['p2', 'p3']);

		// A second agent, listed in full at once: its lists are another source's again.
		const second = history.agent();
		second.writes.setEndpoints([{id: 'ep1', name: 'llama'}], seenAt);
		second.writes.setPods([pod('p1', 70)], seenAt);
		second.writes.setGpuTypes([gpu('h100'), gpu('a100'), gpu('l4')], seenAt);
		writes.adoptAccount(overTheWire(accountSnapshot(second.store.getState())));
		writes.setVia('agent');
		const end = history.flush();
		expect(store.getState().listSource).toBe('agent 2');
		expect(await history.deleted()).toEqual(['p2', 'p3']);

		// Every GPU type and p1 were there all along: each moment of the hand-overs holds them.
		for (let at = start + 10_000; at <= end; at += 5000) {
			const moment = await history.reader.stateAt(at);
			expect(moment?.gpus.order).toEqual(['h100', 'a100', 'l4']);
			expect(moment?.pods.order).toContain('p1');
		}

		// The account's figures were never written from a picture without pods: p1 always ran.
		const [account] = await history.reader.series({kind: 'account', keys: ['account'], from: start, to: end});
		expect(account?.points.length).toBeGreaterThan(0);
		expect(account?.points.every(point => point.last[1]! >= 1)).toBe(true);
	});

	test("a recorder's first keyframe is its first write with samples: the moments before its next minute are not a gap", async () => {
		const history = setup();
		const {writes} = history;
		// Endpoints listed, their health not yet in: a record is written, no sample.
		writes.setEndpoints([{id: 'ep1', name: 'llama'}], start);
		history.flush();
		writes.setPods([pod('p1')], start);
		writes.setGpuTypes([gpu('h100')], start);
		const at = history.flush();
		const moment = await history.reader.stateAt(at + 1000);
		expect(moment?.pods.order).toEqual(['p1']);
		expect(moment?.gpus.order).toEqual(['h100']);
	});
});
