// What recording costs: the real recorder and maintenance fed a fleet's polls (history-fleet.js) at
// the default cadence (pods and every endpoint's health each 5 s, GPU types each 30 s) in simulated
// time, each poll's write and each maintenance round timed in CPU. Gives the recording's share of one
// core, a poll's write p95, and the file's growth per day (raw samples and minute rollups measured
// from the file's pages; hour rollups are a sixtieth of the minute ones).
import {mkdtempSync, rmSync} from 'node:fs';
import {tmpdir} from 'node:os';
import path from 'node:path';
import {openHistoryForWriting} from '../../dist/history/history-file.js';
import {createMaintenance} from '../../dist/history/maintenance.js';
import {createRecorder} from '../../dist/history/recorder.js';
import {createPodtopStore} from '../../dist/store/create-store.js';
import {pollAt} from './history-fleet.js';

const cpuMs = since => {
	const used = process.cpuUsage(since);
	return (used.user + used.system) / 1000;
};

const p95 = values => [...values].sort((a, b) => a - b)[Math.min(values.length - 1, Math.floor(values.length * 0.95))];
const median = values => [...values].sort((a, b) => a - b)[Math.floor(values.length / 2)];

/** Records `minutes` of the fleet at the default cadence into a new file; the figures of it. */
export async function recordingCost(fleet, {minutes = 3} = {}) {
	const folder = mkdtempSync(path.join(tmpdir(), 'podtop-bench-recording-'));
	const file = path.join(folder, 'history.sqlite');
	const start = Math.ceil(Date.now() / 60_000) * 60_000 - 7 * 86_400_000;
	let now = start;
	const {db} = openHistoryForWriting(file, now);
	const {store, writes} = createPodtopStore({mode: 'live', apiHost: 'bench', keyFingerprint: '••••bench'});
	writes.setEndpoints(fleet.endpoints, now);
	const recorder = createRecorder({store, db, file, now: () => now, live: false});
	const maintenance = createMaintenance({db, now: () => now});
	const writesMs = [];
	let maintenanceMs = 0;
	let recordedMs = 0;
	try {
		// The first poll writes everything new (names, records): not the steady state, left out.
		pollAt(writes, fleet, now, start, {gpus: true});
		recorder.flush(now);
		const end = start + minutes * 60_000;
		for (now = start + 5000; now <= end; now += 5000) {
			pollAt(writes, fleet, now, start, {gpus: (now - start) % 30_000 === 0});
			const before = process.cpuUsage();
			recorder.flush(now);
			writesMs.push(cpuMs(before));
			if (now % 60_000 === 0) {
				// A round once the minute's grace has passed, as the agent's timer runs it.
				const round = process.cpuUsage();
				await maintenance.run();
				maintenanceMs += cpuMs(round);
			}

			recordedMs += 5000;
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
			polls: writesMs.length,
			writeP95: p95(writesMs),
			writeMedian: median(writesMs),
			cpuShare: (writesMs.reduce((sum, ms) => sum + ms, 0) + maintenanceMs) / recordedMs,
			rawPerDay: rawBytes * perDay,
			// The minutes rolled up so far (the last waits for its grace), scaled to the day's 1,440.
			minutePerDay: rolledMinutes > 0 ? (minuteBytes / rolledMinutes) * 1440 : 0,
			otherBytes,
		};
	} finally {
		recorder.stop();
		maintenance.stop();
		db.close();
		rmSync(folder, {recursive: true, force: true});
	}
}
