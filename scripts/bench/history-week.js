// The week of history the cursor and chart benchmarks read: generated once (history-generate.js),
// kept in the temporary folder for the next runs (HISTORY_BENCH_REGENERATE=1 makes it again).
import {existsSync, mkdirSync, readFileSync, rmSync, writeFileSync} from 'node:fs';
import {tmpdir} from 'node:os';
import path from 'node:path';
import {schemaVersion} from '../../dist/history/schema.js';
import {generateHistory} from './history-generate.js';
import {readFleet} from './history-fleet.js';

export const weekFleet = {endpoints: 1000, pods: 10_000, seed: 23, days: 7};

/** The generated file and what it holds: {file, from, to, moments, generatedIn (s) or cached}. */
export async function weekOfHistory(log = () => undefined) {
	const folder = path.join(tmpdir(), 'podtop-bench-history');
	const name = `week-${weekFleet.endpoints}-${weekFleet.pods}-${weekFleet.days}d-seed${weekFleet.seed}-v${schemaVersion}`;
	const file = path.join(folder, `${name}.sqlite`);
	const about = path.join(folder, `${name}.json`);
	if (existsSync(file) && existsSync(about) && !process.env.HISTORY_BENCH_REGENERATE) {
		return {...JSON.parse(readFileSync(about, 'utf8')), file, cached: true};
	}

	mkdirSync(folder, {recursive: true, mode: 0o700});
	for (const suffix of ['', '-wal', '-shm', '.lock']) {
		rmSync(`${file}${suffix}`, {force: true});
	}

	log(`generating ${weekFleet.days} days of ${weekFleet.endpoints} endpoints + ${weekFleet.pods} pods into ${file} (kept for the next runs)…`);
	const started = performance.now();
	const fleet = await readFleet(weekFleet);
	const result = await generateHistory({file, fleet, days: weekFleet.days});
	const summary = {...result, generatedIn: (performance.now() - started) / 1000};
	writeFileSync(about, JSON.stringify(summary));
	return {...summary, file, cached: false};
}
