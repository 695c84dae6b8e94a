// The Spend pane's read from recorded bills: 30 days by day of 1,000 endpoints + 10,000 pods (+ 200 volumes), every
// bucket kept and settled (today's read in this billing run), so the service is asked nothing. Times what the pane's
// first frame waits for after `4` on the 30d window, as the pane reads it: the account's report by category, and each
// kind's totals over the 30 and 7 days with names (spendTotals over billedTotals: sums in SQL), on a fresh connection
// each run. Not the frame itself: the Ink render after the read is not in it. Goal: ≤ 150 ms. Prints; asserts nothing.
//   node scripts/bench/spend-pane.js [runs] [endpoints] [pods]   (on the tsc build in dist/: npm run build first)
import {mkdtempSync, rmSync} from 'node:fs';
import {loadavg, tmpdir} from 'node:os';
import path from 'node:path';

const [runsText = '7', endpointsText = '1000', podsText = '10000'] = process.argv.slice(2);
const dist = path.resolve(import.meta.dirname, '../../dist');
const {openHistoryForWriting, openHistoryForReading} = await import(`${dist}/history/history-file.js`);
const {createBillLedger} = await import(`${dist}/history/bill-ledger.js`);
const {billedSpend} = await import(`${dist}/engine/billed-spend.js`);
const {spendReport, spendTotals} = await import(`${dist}/engine/spend-report.js`);
const {billedTotals} = await import(`${dist}/engine/billed-totals.js`);
const {spendQueries} = await import(`${dist}/rows/spend-figures.js`);

const dayMs = 86_400_000;
const now = Date.now();
const today = Math.floor(now / dayMs) * dayMs;
const folder = mkdtempSync(path.join(tmpdir(), 'podtop-spend-pane-'));
const file = path.join(folder, 'history.sqlite');
const counts = {endpoint: Number(endpointsText), pod: Number(podsText), volume: 200};
const ids = kind => Array.from({length: counts[kind]}, (_, index) => `${kind}${String(index).padStart(6, '0')}`);
const amounts = {pod: ['podGpu', 'podCpu', 'podDisk'], endpoint: ['serverlessGpu', 'serverlessDisk', 'serverlessFee'], volume: ['storageStandard']};

try {
	const written = performance.now();
	const {db} = openHistoryForWriting(file, now);
	const ledger = createBillLedger(db, true);
	const days = Array.from({length: 31}, (_, index) => today - (30 - index) * dayMs);
	const readAt = from => (from === today ? now : from + dayMs + 3_600_000);
	for (const kind of ['pod', 'endpoint', 'volume']) {
		ledger.store(
			kind,
			'day',
			days.map(from => ({
				from,
				to: from + dayMs,
				readAt: readAt(from),
				rows: ids(kind).map((resourceId, index) => {
					const byCategory = Object.fromEntries(amounts[kind].map((category, at) => [category, ((index % 97) + at + 1) / 10]));
					return {resourceId, total: Object.values(byCategory).reduce((sum, amount) => sum + amount, 0), byCategory};
				}),
			})),
		);
	}

	ledger.store(
		'account',
		'day',
		days.map(from => ({from, to: from + dayMs, readAt: readAt(from), rows: [{resourceId: '', total: 1000, byCategory: {podGpu: 900, serverlessGpu: 100}}]})),
	);
	db.close();
	console.log(
		`spend pane bench: ${counts.endpoint} endpoints + ${counts.pod} pods + ${counts.volume} volumes, 31 days by day written in ${(performance.now() - written).toFixed(0)} ms`,
	);

	const names = {
		async podSummaries() {
			return ids('pod').map(id => ({id, name: `pod ${id}`}));
		},
		async endpoints() {
			return ids('endpoint').map(id => ({id, name: `endpoint ${id}`}));
		},
		async spend() {
			throw new Error('the service was asked');
		},
		async resourceSpend() {
			throw new Error('the service was asked');
		},
	};
	const figures = [];
	for (let run = 0; run < Number(runsText); run++) {
		const reading = openHistoryForReading(file);
		const started = performance.now();
		const billed = billedSpend(
			names,
			() => createBillLedger(reading, false),
			() => now,
		);
		const api = {...names, ...billed};
		const totals = billedTotals(
			names,
			() => createBillLedger(reading, false),
			() => now,
		);
		const queries = spendQueries('30d', now);
		const windows = {starts: [queries.from, spendQueries('7d', now).from], closedBy: now};
		const [account, ...kinds] = await Promise.all([
			spendReport(api, queries.account, 'category'),
			...['pod', 'endpoint', 'volume'].map(async split => spendTotals(api, totals, queries.resources, split, windows)),
		]);
		const reports = [account, ...kinds.map(([lines]) => ({rows: lines, total: lines.reduce((sum, line) => sum + line.total, 0)}))];
		figures.push(performance.now() - started);
		reading.close();
		console.log(
			`run ${run + 1}: ${figures.at(-1).toFixed(0)} ms (${reports.map(report => report.rows.length).join(' + ')} rows, $${reports[1].total.toFixed(0)} pods) | load ${loadavg()[0].toFixed(2)}`,
		);
	}

	const sorted = [...figures].sort((a, b) => a - b);
	console.log(
		`Spend pane's 30 days from recorded bills: median ${sorted[Math.floor(sorted.length / 2)].toFixed(0)} ms, max ${sorted.at(-1).toFixed(0)} ms (goal ≤ 150 ms) | load ${loadavg()[0].toFixed(2)}`,
	);
} finally {
	rmSync(folder, {recursive: true, force: true});
}
