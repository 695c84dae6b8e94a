import {expect, test} from 'vitest';
import type {WorkerRecord} from '../../source/model/worker.js';
import {statusChangesKept, trackWorkers, type EndpointWorkers} from '../../source/store/worker-track.js';

const worker = (id: string, status: string, uptimeSeconds: number): WorkerRecord => ({id, status, isStale: false, uptimeSeconds});

test("each worker's status changes are kept, the newest last and at most a bound; a restart is marked; a gone worker keeps its record and them", () => {
	let workers: EndpointWorkers | undefined;
	let at = 0;
	const read = (...listed: WorkerRecord[]) => {
		at += 10_000;
		workers = trackWorkers(workers, {endpointId: 'ep1', workers: listed, readAt: at}, true);
		return workers;
	};

	read(worker('w1', 'INITIALIZING', 5));
	const before = read(worker('w1', 'INITIALIZING', 15));
	// Only the uptime moved on: the same object, nothing written.
	expect(read(worker('w1', 'INITIALIZING', 25))).toBe(before);
	read(worker('w1', 'RUNNING', 35));
	read(worker('w1', 'RUNNING', 2));
	expect(workers!.tracks.w1!.statuses).toEqual([
		{at: 10_000, status: 'INITIALIZING'},
		{at: 40_000, status: 'RUNNING'},
		{at: 50_000, status: 'RUNNING', restarted: true},
	]);
	for (let flip = 0; flip < 30; flip++) {
		read(worker('w1', flip % 2 === 0 ? 'THROTTLED' : 'RUNNING', 10 + flip * 10));
	}

	const {statuses} = workers!.tracks.w1!;
	expect(statuses).toHaveLength(statusChangesKept);
	expect(statuses.at(-1)).toEqual({at, status: 'RUNNING'});
	read();
	expect(workers!.gone).toEqual([
		{
			id: 'w1',
			at,
			status: 'RUNNING',
			uptimeSeconds: 300,
			queueWaited: true,
			last: worker('w1', 'RUNNING', 300),
			track: expect.objectContaining({restarts: 1, statuses}),
		},
	]);
});
