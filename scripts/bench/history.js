#!/usr/bin/env node
// `npm run bench`, history's figures (issue 23): what recording costs at 1,000 endpoints + 10,000
// pods, the file's growth per day for three fleets, a 24 h series read and a time cursor step over a
// week of 1,000 + 10,000 (generated once into the temporary folder, kept for the next runs), and the
// agent's CPU and memory recording 10,000 pods. Prints numbers; asserts nothing.
//   HISTORY_BENCH_ONLY=recording,disk,read,cursor,agent picks parts.
import {createSqliteReader} from '../../dist/history/sqlite-reader.js';
import {openHistoryForReading} from '../../dist/history/history-file.js';
import {agentCost} from './history-agent.js';
import {cursorBench} from './history-cursor.js';
import {readFleet} from './history-fleet.js';
import {recordingCost} from './history-recording.js';
import {weekOfHistory} from './history-week.js';

const only = new Set((process.env.HISTORY_BENCH_ONLY ?? 'recording,disk,read,cursor,agent').split(','));
const mb = bytes => `${(bytes / 1024 / 1024).toFixed(1)} MB`;
const p95 = values => [...values].sort((a, b) => a - b)[Math.min(values.length - 1, Math.floor(values.length * 0.95))];
const median = values => [...values].sort((a, b) => a - b)[Math.floor(values.length / 2)];
const report = (label, value, goal = '', note = '') => {
	console.log(`  ${label.padEnd(58)} ${value.padStart(10)}${goal ? `  (goal ${goal})` : ''}${note ? `  ${note}` : ''}`);
};

console.log('history (issue 23); the machine is shared: figures move with its load');
if (only.has('recording') || only.has('disk')) {
	const fleets = [
		['the demo fleet', {}, 10],
		['50 endpoints + 200 pods', {endpoints: 50, pods: 200}, 10],
		// Ten minutes: 120 polls, 10 of them the minute's keyframe (simulated time: only the writes cost).
		['1,000 endpoints + 10,000 pods', {endpoints: 1000, pods: 10_000}, 10],
	];
	for (const [label, size, minutes] of fleets) {
		const fleet = await readFleet(size);
		const cost = await recordingCost(fleet, {minutes});
		const things = `${fleet.endpoints.length} endpoints, ${fleet.pods.length} pods`;
		if (only.has('recording') && size.pods === 10_000) {
			// The goal is judged on the main thread's CPU and the wall time, both at p95: what holds the poll up. The process's CPU
			// (every thread, V8's helpers too) is printed beside them.
			const thread = cost.threadP95 === undefined ? 'n/a' : `${cost.threadP95.toFixed(0)} ms`;
			report(
				`recording ${label}: a poll's write, p95 (main thread CPU)`,
				thread,
				'≤ 50 ms, with the wall p95',
				cost.threadMedian === undefined ? 'no per-thread clock here' : `median ${cost.threadMedian.toFixed(0)} ms`,
			);
			report(
				`recording ${label}: a poll's write, p95 (wall)`,
				`${cost.wallP95.toFixed(0)} ms`,
				'≤ 50 ms, with the main thread',
				`median ${cost.wallMedian.toFixed(0)} ms`,
			);
			report(
				`recording ${label}: a poll's write, p95 (process CPU, all threads)`,
				`${cost.writeP95.toFixed(0)} ms`,
				'',
				`median ${cost.writeMedian.toFixed(0)} ms, max ${cost.writeMax.toFixed(0)} ms, ${cost.polls} polls`,
			);
			console.log(
				`    the slowest ${cost.slow.count} (process CPU): ${cost.slow.keyframes} keyframes, ${cost.slow.withGc} with a collector pause inside;` +
					` medians: plain polls ${cost.plainMedian.toFixed(0)} ms, keyframes ${cost.keyframeMedian.toFixed(0)} ms;` +
					` ${cost.withGc} polls had a pause (${cost.gcMs.toFixed(0)} ms in all)`,
			);
			report(
				`recording ${label}: writes + upkeep, share of one core`,
				`${(cost.cpuShare * 100).toFixed(1)} %`,
				'≤ 5 %',
				`${minutes} simulated minutes, polls every 5 s`,
			);
		}

		if (only.has('disk')) {
			const day = cost.rawPerDay + cost.minutePerDay + cost.minutePerDay / 60;
			// Kept at the default retention: 48 h raw, 30 days of minutes, a year of hours.
			const kept = 2 * cost.rawPerDay + 30 * cost.minutePerDay + 365 * (cost.minutePerDay / 60);
			report(
				`disk per day, ${label} (${things})`,
				mb(day),
				'',
				`raw ${mb(cost.rawPerDay)} + minute ${mb(cost.minutePerDay)}; file at default retention ≈ ${mb(kept)}`,
			);
		}
	}
}

if (only.has('read') || only.has('cursor')) {
	const week = await weekOfHistory(line => {
		console.log(`  ${line}`);
	});
	if (!week.cached) {
		report('generating the week (once, kept in the temporary folder)', `${week.generatedIn.toFixed(0)} s`);
	}

	if (only.has('read')) {
		// What a window change to 24 h asks of the file: one endpoint's series over a day at the chart's step (a minute), and a pod's.
		const db = openHistoryForReading(week.file);
		const reader = createSqliteReader({db, file: week.file, ownsDatabase: true});
		const things = await reader.things();
		for (const kind of ['endpoint', 'pod']) {
			const keys = things.filter(thing => thing.kind === kind).map(thing => thing.key);
			// The first read of a thing's day reads its pages from the disk (as the first look at it does); the second finds them cached.
			const first = [];
			const again = [];
			for (let index = 0; index < 20; index++) {
				const key = keys[(index * 37) % keys.length];
				for (const times of [first, again]) {
					const started = performance.now();
					const [series] = await reader.series({kind, keys: [key], from: week.to - 86_400_000, to: week.to, step: 60_000});
					times.push(performance.now() - started);
					if (!series) {
						throw new Error(`no series for ${kind} ${key}`);
					}
				}
			}

			report(
				`window change to 24 h: one ${kind}'s series read, p95`,
				`${p95(first).toFixed(0)} ms`,
				'≤ 100 ms (key→frame)',
				`median ${median(first).toFixed(0)} ms first read; read again p95 ${p95(again).toFixed(0)} ms`,
			);
		}

		await reader.close();
	}

	if (only.has('cursor')) {
		await cursorBench({week, report});
	}
}

if (only.has('agent')) {
	const {recording, without} = await agentCost();
	report('podtop agent at 1,000 endpoints + 10,000 pods: RSS', mb(recording.rss), '≤ 200 MB', `peak ${mb(recording.peakRss)}; --no-history ${mb(without.rss)}`);
	report(
		'podtop agent at 1,000 endpoints + 10,000 pods: CPU, one core',
		`${(recording.cpu * 100).toFixed(1)} %`,
		'',
		`--no-history ${(without.cpu * 100).toFixed(1)} %`,
	);
	if (/paused|failed|cannot/i.test(recording.log)) {
		console.log(`  the agent said: ${recording.log.trim().split('\n').slice(-3).join(' | ')}`);
	}
}
