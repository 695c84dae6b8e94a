import {formatRange} from '../format/moment-text.js';
import {inertJson} from '../format/sanitize.js';
import {describeThing, findThing} from '../headless/find-thing.js';
import {historyInfoDocument, historyInfoText} from '../headless/history-info-text.js';
import {seriesCsv} from '../headless/series-csv.js';
import {seriesDocument} from '../headless/series-json.js';
import {seriesTable} from '../headless/series-table.js';
import {historySpendDocument, historySpendText, readHistorySpend} from '../headless/recorded-spend-text.js';
import {thingsCsv, thingsDocument, thingsTable} from '../headless/things-text.js';
import {type SeriesKind, seriesKinds} from '../history/history-types.js';
import {NotFoundError} from '../lib/not-found-error.js';
import {UsageError} from '../lib/usage-error.js';
import {exitCodes} from './exit-code.js';
import {historyHelp as historyFlagsHelp, readHistoryFlags} from './history-flags.js';
import {parseCommandLine} from './parse-command-line.js';
import {readStep, readTimeRange, timeRangeHelp} from './time-range.js';
import {readerConnectionHelp, readReaderTarget, recordedSpan, withHistory} from './with-history.js';
import {commandFlags} from './command-flags.js';

const defaultSince = 3_600_000;

export const historyCommandHelp = `
	Usage
	  $ podtop history [<endpoint|pod|gpu-type|account>] [--since 1h | --from T --to T] [--step 1m] [--json | --csv]
	  $ podtop history --info [--json]

	The recorded series of one thing, named by id or name (an endpoint, a pod, a GPU type, or
	"account" for the account's totals), as a table, one JSON document or CSV. With no thing, what
	is recorded: kind, id, name, when first seen, when deleted. Nothing is polled.
	Under the series, the spend over the window from the bills kept (podtop spend and the Spend
	pane keep what they read): a pod's or endpoint's own by category; the account's by category
	and each pod, endpoint and volume by name, the costliest first. Not in --csv.

	Options
	  --step SPAN       Merge the points into buckets this wide (30s, 1m, 1h); coarser steps read
	                    the minute or hour rollups, so a month is quick
	  --kind KIND       Look the name up among endpoint, pod, gpu or account only (a name two
	                    things share)
	  --json            One JSON document: kind, key, name, deleted, tier, step, from, to, fields,
	                    and points, each {at, samples, state, <field>: {min, mean, max, last}};
	                    spend as below: {from, to, bucketSize, total, byCategory[, resources]}
	  --csv             A header line and a row per point: at, key, name, [samples,] [state,] then
	                    a column per field; merged points give the mean under the field's name and
	                    <field>_min, <field>_max beside it
	  --info            The history file: its size, each tier's span and retention, counts, and
	                    PRAGMA integrity_check (exit 1 when it is not ok)
${timeRangeHelp(defaultSince)}
${readerConnectionHelp}
${historyFlagsHelp}

	Exit status: 0 ok, 1 the file is damaged (--info), 2 usage (a time that does not parse), 4 a name
	several things share (listed with their ids), or nothing recorded for that name or time.

	Examples
	  $ podtop history                                    # what is recorded
	  $ podtop history llama-70b --since 6h --step 5m
	  $ podtop history llama-70b --json | jq -r '.points[] | [.at, .inQueue.max] | @tsv'
	  $ podtop history "NVIDIA H100 80GB HBM3" --since 7d --step 1h --csv > h100.csv
	  $ podtop history account --since 24h --step 1h      # what the account cost, hour by hour
	  $ podtop history --info
`;

export async function runHistory(argv: readonly string[]): Promise<void> {
	const cli = parseCommandLine(historyCommandHelp, argv, commandFlags.history, 'podtop history');
	const {json, csv, info} = cli.flags;
	const [name, ...extra] = cli.input;
	if (extra.length > 0) {
		throw new UsageError(`history shows one thing at a time, got ${cli.input.length}: quote a name with spaces ("NVIDIA H100 80GB HBM3")`);
	}

	if (json && csv) {
		throw new UsageError('choose --json or --csv, not both');
	}

	const kind = cli.flags.kind as SeriesKind | undefined;
	if (kind !== undefined && !seriesKinds.includes(kind)) {
		throw new UsageError(`--kind takes ${seriesKinds.join(', ')}, got "${kind}"`);
	}

	const target = readReaderTarget(cli.flags);
	const history = readHistoryFlags(cli.flags);
	if (info) {
		if (name !== undefined || csv) {
			throw new UsageError('--info describes the whole file: drop the thing named (and --csv)');
		}

		await withHistory({target, history, emptyAllowed: true}, async reader => {
			const about = await reader.info({integrity: true});
			process.stdout.write(json ? `${inertJson(historyInfoDocument(about), 2)}\n` : historyInfoText(about));
			if (about.integrity !== undefined && about.integrity !== 'ok') {
				process.stderr.write(`podtop: the history file fails its integrity check (above): it is damaged\n`);
				process.exitCode = exitCodes.failed;
			}
		});
		return;
	}

	const range = readTimeRange(cli.flags, defaultSince);
	const step = readStep(cli.flags.step);
	await withHistory({target, history}, async reader => {
		const things = await reader.things(kind);
		if (name === undefined) {
			if (things.length === 0) {
				throw new NotFoundError(`nothing is recorded${kind ? ` of kind ${kind}` : ''}; ${await recordedSpan(reader)}`);
			}

			process.stdout.write(json ? `${inertJson(thingsDocument(things), 2)}\n` : csv ? thingsCsv(things) : thingsTable(things));
			return;
		}

		const thing = findThing(things, name, kind);
		const [series] = await reader.series({kind: thing.kind, keys: [thing.key], from: range.from, to: range.to, step});
		if (!series || series.points.length === 0) {
			throw new NotFoundError(`nothing is recorded for ${describeThing(thing)} in ${formatRange(range.from, range.to)}; ${await recordedSpan(reader)}`);
		}

		const width = process.stdout.isTTY ? process.stdout.columns : undefined;
		if (csv) {
			process.stdout.write(seriesCsv(series));
			return;
		}

		// What it cost over the window, from the bills kept (a GPU type is billed to the pods on it).
		const spend = thing.kind === 'gpu' ? undefined : await readHistorySpend(reader, range.from, range.to, thing);
		process.stdout.write(
			json
				? `${inertJson({...seriesDocument(series, range), ...(spend && {spend: historySpendDocument(spend)})})}\n`
				: `${seriesTable(series, range, width)}${spend ? historySpendText(spend) : ''}`,
		);
	});
}
