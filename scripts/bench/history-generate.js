#!/usr/bin/env node
// Writes a week (or `--days`) of a large account's history into a file fast: the real recorder and
// maintenance (the real writes, rollups and pruning) driven at simulated moments over a fleet read
// once from the simulator (history-fleet.js). A week of 10,000 pods polled every 5 s is some 300
// million raw samples and 100 million minute rollups (tens of GB), so the file is recorded densely
// where the benchmarks read it and thinly elsewhere:
//   - the last hour: every 5 s, as the agent polls (raw tier);
//   - one hour three days back: every minute (the minute tier, full);
//   - the rest of the span: once an hour (every tier has the whole week's span and its series).
// Each moment read is as dense as in a real file; the file is smaller, so more of it is cached.
//   node scripts/bench/history-generate.js FILE [--endpoints 1000] [--pods 10000] [--days 7]
import {mkdirSync} from 'node:fs';
import path from 'node:path';
import {parseArgs} from 'node:util';
import {openHistoryForWriting} from '../../dist/history/history-file.js';
import {createMaintenance} from '../../dist/history/maintenance.js';
import {createRecorder} from '../../dist/history/recorder.js';
import {createPodtopStore} from '../../dist/store/create-store.js';
import {pollAt, readFleet} from './history-fleet.js';

const minute = 60_000;
const hour = 60 * minute;
const day = 24 * hour;

/** The moments written, oldest first: hourly over the span, every minute for an hour three days back, every 5 s for the last hour. */
export function generatedMoments({end, days, denseRawMs = hour, denseMinuteAt = end - 3 * day}) {
	const moments = [];
	const start = Math.floor((end - days * day) / hour) * hour;
	const denseMinuteFrom = denseMinuteAt - hour;
	const denseRawFrom = end - denseRawMs;
	for (let at = start; at < denseRawFrom; at += hour) {
		if (at < denseMinuteFrom || at >= denseMinuteAt) {
			moments.push(at + 1000);
		}

		if (at + hour > denseMinuteFrom && at < denseMinuteAt) {
			for (let each = Math.max(at, denseMinuteFrom); each < Math.min(at + hour, denseMinuteAt); each += minute) {
				moments.push(each + 2000);
			}
		}
	}

	for (let at = denseRawFrom; at <= end; at += 5000) {
		moments.push(at);
	}

	return moments.sort((a, b) => a - b).filter((at, index, all) => index === 0 || at > all[index - 1]);
}

export async function generateHistory({file, fleet, days = 7, end = Date.now(), log = () => undefined}) {
	mkdirSync(path.dirname(file), {recursive: true});
	const moments = generatedMoments({end, days});
	const startedAt = moments[0];
	let now = startedAt;
	const {db} = openHistoryForWriting(file, now);
	const {store, writes} = createPodtopStore({mode: 'live', apiHost: 'bench', keyFingerprint: '••••bench'});
	writes.setEndpoints(fleet.endpoints, now);
	const recorder = createRecorder({store, db, file, now: () => now, live: false});
	const maintenance = createMaintenance({db, now: () => now});
	let lastUpkeep = now;
	let written = 0;
	const cpu = process.cpuUsage();
	for (const at of moments) {
		now = at;
		pollAt(writes, fleet, at, startedAt, {gpus: at % (30 * 1000) < 5000 || at - startedAt < 5000});
		recorder.flush(at);
		written++;
		if (at - lastUpkeep >= hour) {
			lastUpkeep = at;
			await maintenance.run();
			log(`${new Date(at).toISOString()}  ${written} polls written`);
		}
	}

	await maintenance.run();
	recorder.stop();
	db.exec('PRAGMA wal_checkpoint(TRUNCATE)');
	db.close();
	const used = process.cpuUsage(cpu);
	return {moments: moments.length, from: startedAt, to: end, cpuSeconds: (used.user + used.system) / 1e6};
}

if (import.meta.url === `file://${process.argv[1]}`) {
	const {values, positionals} = parseArgs({
		allowPositionals: true,
		options: {endpoints: {type: 'string', default: '1000'}, pods: {type: 'string', default: '10000'}, days: {type: 'string', default: '7'}},
	});
	if (positionals.length !== 1) {
		process.stderr.write('usage: history-generate.js FILE [--endpoints N] [--pods N] [--days N]\n');
		process.exit(2);
	}

	const fleet = await readFleet({endpoints: Number(values.endpoints), pods: Number(values.pods)});
	const result = await generateHistory({
		file: path.resolve(positionals[0]),
		fleet,
		days: Number(values.days),
		log: line => process.stderr.write(`${line}\n`),
	});
	process.stdout.write(`${JSON.stringify(result)}\n`);
}
