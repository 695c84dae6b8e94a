// What recording costs: the real recorder and maintenance fed a fleet's polls (history-fleet.js) at
// the default cadence (pods and every endpoint's health each 5 s, GPU types each 30 s) in simulated
// time, each poll's write and each maintenance round timed in CPU. Gives the recording's share of one
// core, each poll's write (with whether it was the minute's keyframe and how long V8's collector paused
// inside it), and the file's growth per day (raw samples and minute rollups measured from the file's
// pages; hour rollups are a sixtieth of the minute ones).
import {closeSync, mkdtempSync, openSync, readSync, rmSync} from 'node:fs';
import {tmpdir} from 'node:os';
import path from 'node:path';
import {PerformanceObserver, performance} from 'node:perf_hooks';
import {openHistoryForWriting} from '../../dist/history/history-file.js';
import {createMaintenance} from '../../dist/history/maintenance.js';
import {createRecorder} from '../../dist/history/recorder.js';
import {createPodtopStore} from '../../dist/store/create-store.js';
import {pollAt} from './history-fleet.js';

const cpuMs = since => {
	const used = process.cpuUsage(since);
	return (used.user + used.system) / 1000;
};

/**
The main thread's own CPU time in ms (Linux: the thread's line of schedstat, its id the process's), or undefined where
there is none. \`process.cpuUsage\` counts every thread of the process: V8's helpers (parallel scavenge, concurrent
marking, compiling) busy meanwhile are in it, though they hold nothing up. Node 20 has no threadCpuUsage.
*/
function mainThreadClock() {
	let fd;
	try {
		fd = openSync(`/proc/self/task/${process.pid}/schedstat`, 'r');
	} catch {
		return {read: () => undefined, close() {}};
	}

	const buffer = Buffer.alloc(64);
	return {
		read() {
			const length = readSync(fd, buffer, 0, buffer.length, 0);
			return Number(buffer.toString('latin1', 0, length).split(' ')[0]) / 1e6;
		},
		close() {
			closeSync(fd);
		},
	};
}

const p95 = values => [...values].sort((a, b) => a - b)[Math.min(values.length - 1, Math.floor(values.length * 0.95))];
const median = values => [...values].sort((a, b) => a - b)[Math.floor(values.length / 2)];

/** What the figures of a poll's write are made of: the polls at or above the p95, by keyframe and by a collector pause inside them. */
function writeFigures(polls) {
	const ms = polls.map(poll => poll.ms);
	const top = p95(ms);
	const slow = polls.filter(poll => poll.ms >= top);
	const plain = polls.filter(poll => !poll.keyframe && poll.gcMs === 0).map(poll => poll.ms);
	const keyframes = polls.filter(poll => poll.keyframe).map(poll => poll.ms);
	return {
		writeP95: top,
		writeMedian: median(ms),
		writeMax: Math.max(...ms),
		// Medians of the plain polls (no keyframe, no collector pause) and of the keyframes.
		plainMedian: plain.length > 0 ? median(plain) : 0,
		keyframeMedian: keyframes.length > 0 ? median(keyframes) : 0,
		// The main thread's own CPU (what holds the poll up) and its time (wall): the process's CPU also counts V8's helper threads.
		threadP95: polls[0]?.threadMs === undefined ? undefined : p95(polls.map(poll => poll.threadMs)),
		threadMedian: polls[0]?.threadMs === undefined ? undefined : median(polls.map(poll => poll.threadMs)),
		wallMedian: median(polls.map(poll => poll.to - poll.from)),
		wallP95: p95(polls.map(poll => poll.to - poll.from)),
		slow: {count: slow.length, keyframes: slow.filter(poll => poll.keyframe).length, withGc: slow.filter(poll => poll.gcMs > 0).length},
		withGc: polls.filter(poll => poll.gcMs > 0).length,
		gcMs: polls.reduce((sum, poll) => sum + poll.gcMs, 0),
	};
}

/** Records `minutes` of the fleet at the default cadence into a new file; the figures of it. */
export async function recordingCost(fleet, {minutes = 10} = {}) {
	const folder = mkdtempSync(path.join(tmpdir(), 'podtop-bench-recording-'));
	const file = path.join(folder, 'history.sqlite');
	const start = Math.ceil(Date.now() / 60_000) * 60_000 - 7 * 86_400_000;
	let now = start;
	const {db} = openHistoryForWriting(file, now);
	const {store, writes} = createPodtopStore({mode: 'live', apiHost: 'bench', keyFingerprint: '••••bench'});
	writes.setEndpoints(fleet.endpoints, now);
	const recorder = createRecorder({store, db, file, now: () => now, live: false});
	const maintenance = createMaintenance({db, now: () => now});
	const polls = [];
	const thread = mainThreadClock();
	// The collector's pauses, by when they started (the observer is told later): each is counted in the write it fell in.
	const pauses = [];
	const observer = new PerformanceObserver(list => {
		for (const entry of list.getEntries()) {
			pauses.push([entry.startTime, entry.duration]);
		}
	});
	observer.observe({entryTypes: ['gc']});
	let maintenanceMs = 0;
	let recordedMs = 0;
	try {
		// The first poll writes everything new (names, records): not the steady state, left out.
		pollAt(writes, fleet, now, start, {gpus: true});
		recorder.flush(now);
		const end = start + minutes * 60_000;
		for (now = start + 5000; now <= end; now += 5000) {
			pollAt(writes, fleet, now, start, {gpus: (now - start) % 30_000 === 0});
			const threadBefore = thread.read();
			const before = process.cpuUsage();
			const from = performance.now();
			recorder.flush(now);
			const to = performance.now();
			const ms = cpuMs(before);
			const threadAfter = thread.read();
			polls.push({ms, threadMs: threadAfter === undefined ? undefined : threadAfter - threadBefore, keyframe: now % 60_000 === 0, from, to});
			if (now % 60_000 === 0) {
				// A round once the minute's grace has passed, as the agent's timer runs it.
				const round = process.cpuUsage();
				await maintenance.run();
				maintenanceMs += cpuMs(round);
			}

			recordedMs += 5000;
		}

		await new Promise(resolve => {
			setTimeout(resolve, 50);
		});
		for (const poll of polls) {
			poll.gcMs = pauses.filter(([at]) => at >= poll.from && at < poll.to).reduce((sum, [, duration]) => sum + duration, 0);
		}

		db.exec('PRAGMA wal_checkpoint(TRUNCATE)');
		const sizes = new Map(db.prepare(`SELECT name, sum(pgsize) FROM dbstat GROUP BY name`).raw().all());
		const of = names => names.reduce((sum, name) => sum + (sizes.get(name) ?? 0), 0);
		const rawBytes = of([...sizes.keys()].filter(name => /raw|polls/.test(name)));
		const minuteBytes = of([...sizes.keys()].filter(name => /minute/.test(name)));
		const otherBytes = of([...sizes.keys()]) - rawBytes - minuteBytes;
		const perDay = 86_400_000 / recordedMs;
		const rolledMinutes = db.prepare('SELECT count(DISTINCT at) FROM minute').raw().get()[0];
		return {
			polls: polls.length,
			...writeFigures(polls),
			cpuShare: (polls.reduce((sum, poll) => sum + poll.ms, 0) + maintenanceMs) / recordedMs,
			rawPerDay: rawBytes * perDay,
			// The minutes rolled up so far (the last waits for its grace), scaled to the day's 1,440.
			minutePerDay: rolledMinutes > 0 ? (minuteBytes / rolledMinutes) * 1440 : 0,
			otherBytes,
		};
	} finally {
		observer.disconnect();
		thread.close();
		recorder.stop();
		maintenance.stop();
		db.close();
		rmSync(folder, {recursive: true, force: true});
	}
}
