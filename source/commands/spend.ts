import {inertJson} from '../format/sanitize.js';
import {spendCsv, spendDocument, spendTable} from '../headless/spend-text.js';
import {UsageError} from '../lib/usage-error.js';
import {spendBucketSizes, spendSplits, type SpendBucketSize, type SpendSplit} from '../model/spend.js';
import {commandFlags} from './command-flags.js';
import {readConnectionFlags, readingConnectionHelp} from './connection-flags.js';
import {historyHelp, readHistoryFlags} from './history-flags.js';
import {withHeadlessEngine} from './headless-engine.js';
import {parseCommandLine} from './parse-command-line.js';
import {readTimeRange, timeRangeHelp} from './time-range.js';

const defaultSince = 30 * 86_400_000;

export const spendHelp = `
	Usage
	  $ podtop spend [--since 30d | --from T --to T] [--bucket hour|day|week|month|year]
	                 [--by category|pod|endpoint|volume] [--json | --csv]

	What the account spent, from the service's own bills (REST v2; the service bills every 5 minutes,
	in UTC buckets, shown in local time): per bucket by category (pod GPU, CPU and disk; serverless
	GPU, CPU, disk and fee; storage; public endpoints; clusters), or per pod, endpoint or network
	volume with its name and id, the costliest first. The bucket in progress is included, so far.
	Bills are kept in the account's history file: the service is asked only for the buckets the
	file lacks, or that were still open when read (--no-history asks for all of them).

	Options
	  --bucket SIZE     hour, day, week (from Monday), month or year           [default: day]
	  --by SPLIT        category, pod, endpoint (serverless) or volume         [default: category]
	  --json            The window, the totals and every bucket (by resource: each resource's
	                    bucket, with id and name, and each resource's total)
	  --csv             A row per bucket (or resource's bucket): from, to, [id, name,] total and
	                    each category, in dollars
${timeRangeHelp(defaultSince)}
	                    The service widens the window to whole buckets.
${readingConnectionHelp}
${historyHelp}

	Exit status: 0 ok, 2 usage, 3 the key is refused or cannot read billing (a team Dev key),
	5 network or timeout, 1 other.

	Examples
	  $ podtop spend --demo
	  $ podtop spend --since 7d --by pod
	  $ podtop spend --bucket hour --since 24h --json | jq '.buckets[] | [.from, .total]'
	  $ podtop spend --bucket month --from 2026-01-01 --csv > spend.csv
`;

function readChoice<T extends string>(flag: string, value: string | undefined, choices: readonly T[], fallback: T): T {
	if (value === undefined) {
		return fallback;
	}

	if (!(choices as readonly string[]).includes(value)) {
		throw new UsageError(`${flag} takes ${choices.join(', ')}, got "${value}"`);
	}

	return value as T;
}

export async function runSpend(argv: readonly string[]): Promise<void> {
	const cli = parseCommandLine(spendHelp, argv, commandFlags.spend, 'podtop spend');
	if (cli.input.length > 0) {
		throw new UsageError(`spend takes no arguments, got "${cli.input.join(' ')}": narrow it with --since, --from, --to and --by`);
	}

	if (cli.flags.json && cli.flags.csv) {
		throw new UsageError('give --json or --csv, not both');
	}

	const bucketSize: SpendBucketSize = readChoice('--bucket', cli.flags.bucket, spendBucketSizes, 'day');
	const split: SpendSplit = readChoice('--by', cli.flags.by, spendSplits, 'category');
	const range = readTimeRange(cli.flags, defaultSince);
	const {target, budget, agent} = readConnectionFlags(cli.flags);
	const history = readHistoryFlags(cli.flags);
	await withHeadlessEngine(target, {budget, poll: [], agent, history}, async engine => {
		const report = await engine.spend({bucketSize, from: range.from, to: range.to}, split);
		process.stdout.write(cli.flags.json ? `${inertJson(spendDocument(report), 2)}\n` : cli.flags.csv ? spendCsv(report) : spendTable(report));
	});
}
