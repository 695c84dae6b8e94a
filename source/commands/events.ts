import {formatRange} from '../format/moment-text.js';
import {inertJson} from '../format/sanitize.js';
import {eventDocument, eventsTable} from '../headless/events-text.js';
import {historyEventTypes as eventTypes, type HistoryEventType} from '../history/history-types.js';
import {NotFoundError} from '../lib/not-found-error.js';
import {UsageError} from '../lib/usage-error.js';
import {historyHelp, readHistoryFlags} from './history-flags.js';
import {parseCommandLine} from './parse-command-line.js';
import {readTimeRange, timeRangeHelp} from './time-range.js';
import {readerConnectionHelp, readReaderTarget, recordedSpan, withHistory} from './with-history.js';
import {commandFlags} from './command-flags.js';

const defaultSince = 24 * 3_600_000;
/** The most events one call prints (the newest kept); a narrower window shows the rest. */
const limit = 10_000;

export const eventsHelp = `
	Usage
	  $ podtop events [--since 24h | --from T --to T] [--type alert,write,...] [--jsonl]

	The recorded timeline, oldest first: alerts firing and resolved, writes (from the audit log:
	operation, target, outcome), tracked jobs' status changes with their delay and execution
	time, endpoints, pods and GPU types created, deleted or changing status, probes ([[probe]] in
	the alert rules: delay, execution, cold or not). Nothing is polled.

	Options
	  --type TYPES      Only these, comma-separated: alert (alert.firing, alert.resolved), write,
	                    job, created, deleted, status, probe, recording, load (podtop load's runs)
	  --jsonl           One JSON object per line: at, type, kind, subject, name, data
${timeRangeHelp(defaultSince)}
${readerConnectionHelp}
${historyHelp}

	Exit status: 0 ok (also when nothing happened in a window that was recorded), 2 usage (a time
	that does not parse, an unknown type), 4 nothing recorded in that window.

	Examples
	  $ podtop events --since 6h --type alert
	  $ podtop events --from 03:00 --to 04:00 --jsonl | jq -c 'select(.type == "write") | .data'
`;

/** `--type alert,write`: the event types it names; a UsageError listing them for a word that names none. */
export function readEventTypes(text: string | undefined): ReadonlySet<HistoryEventType> | undefined {
	if (text === undefined) {
		return undefined;
	}

	const wanted = new Set<HistoryEventType>();
	for (const word of text.split(',').map(part => part.trim().toLowerCase())) {
		const matching = eventTypes.filter(type => type === word || type.startsWith(`${word}.`));
		if (matching.length === 0) {
			throw new UsageError(`--type: "${word}" is no event type; the types are alert, ${eventTypes.join(', ')}, recording`);
		}

		for (const type of matching) {
			wanted.add(type);
		}
	}

	return wanted;
}

export async function runEvents(argv: readonly string[]): Promise<void> {
	const cli = parseCommandLine(eventsHelp, argv, commandFlags.events, 'podtop events');
	if (cli.input.length > 0) {
		throw new UsageError(`events takes no arguments, got "${cli.input.join(' ')}": narrow it with --type, --since, --from and --to`);
	}

	const types = readEventTypes(cli.flags.type);
	const range = readTimeRange(cli.flags, defaultSince);
	await withHistory({target: readReaderTarget(cli.flags), history: readHistoryFlags(cli.flags)}, async reader => {
		const span = await reader.span();
		if (!span || span.to < range.from || span.from > range.to) {
			throw new NotFoundError(`nothing is recorded in ${formatRange(range.from, range.to)}; ${await recordedSpan(reader)}`);
		}

		const all = await reader.events(range.from, range.to, limit);
		if (all.length >= limit) {
			process.stderr.write(`podtop: the newest ${limit.toLocaleString('en')} events only: narrow the window (--from, --to) for the rest\n`);
		}

		const events = types ? all.filter(event => types.has(event.type)) : all;
		if (cli.flags.jsonl) {
			process.stdout.write(events.map(event => `${inertJson(eventDocument(event))}\n`).join(''));
		} else if (events.length === 0) {
			process.stderr.write(`podtop: no ${types ? `${[...types].join(', ')} ` : ''}events in ${formatRange(range.from, range.to)}\n`);
		} else {
			process.stdout.write(eventsTable(events, range));
		}
	});
}
