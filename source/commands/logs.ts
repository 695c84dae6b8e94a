import type {LogNames} from '../engine/log-subject.js';
import {formatLogLine, logLineJson} from '../format/log-output.js';
import {NotFoundError} from '../lib/not-found-error.js';
import {momentHelp} from '../lib/time-spec.js';
import {UsageError} from '../lib/usage-error.js';
import type {LogQuery} from '../model/log-line.js';
import type {LogSession} from '../model/log-session.js';
import {logBufferLines} from '../poll/open-log-session.js';
import {ApiError} from '../api/errors.js';
import {logsFlags} from './command-flags.js';
import {subcommandUsage} from './command-list.js';
import {readConnectionFlags, readingConnectionHelp} from './connection-flags.js';
import {withHeadlessEngine} from './headless-engine.js';
import {parseCommandLine} from './parse-command-line.js';
import {readMoment} from './time-range.js';
import {untilSignal} from './until-signal.js';
import {untilBacklogRead} from './log-backlog.js';

/** Lines of backlog when neither --tail nor --since is given (the service's own default is 100). */
export const defaultLogTail = 200;

export const logsHelp = `
	Usage
	  $ podtop logs pod <pod> [-f] [--tail N | --since TIME] [--source container|system] [--jsonl]
	  $ podtop logs worker <endpoint> <worker> [options]
	  $ podtop logs worker <endpoint> --all [options]

	Prints a pod's or a serverless worker's log (REST v2), as \`kubectl logs\` does: the last lines
	(or those since a time) and exits; with -f it goes on following until Ctrl-C, and resumes after a
	drop with no line lost or doubled. --all merges every worker of the endpoint, each line prefixed
	with its worker (coloured in a terminal), workers joining as they start. <pod> and <endpoint> are
	ids or names; <worker> its id, or the start of one.

	Options
	  -f, --follow      Keep following (reconnecting after a drop or a stall) until Ctrl-C
	  --tail N          The last N lines first, 0 to 5000  [default: ${defaultLogTail}]
	  --since TIME      The lines since then instead: ${momentHelp}
	  --source S        container or system (the host's lifecycle lines); both when not given
	  --all             Every worker of the endpoint, merged
	  --jsonl           One JSON object a line: ts, pod or worker, source, line, id (raw, truncated when so)
${readingConnectionHelp}

	Without -f the backlog's end is when the stream has given --tail lines, or when no line came for
	a second once every stream is open (the service sends its backlog at once, then waits for new
	lines: it never ends a stream by itself). Every line is made inert for a terminal; a line over
	16 kB is cut ([truncated]), one the service sent as other than its JSON is shown as it came ([raw]).

	A worker that is gone has no log at the service (404): its last lines are printed if the agent
	kept them (it keeps those of workers that crash-loop, go UNHEALTHY or die young), from the agent
	while one runs, else from the history file, and stderr says they are what the agent kept.

	Exit status: 0 ok, 2 usage, 3 authentication, 4 no such pod, endpoint or worker (a gone worker
	with nothing kept), 5 network or timeout, 1 other.

	Examples
	  $ podtop logs pod my-pod --tail 50
	  $ podtop logs worker llama-70b --all -f --source container
	  $ podtop logs worker llama-70b w3kq9 --since 10m --jsonl | jq -r .line
`;

/** The query the flags ask for: `--tail` or `--since`, not both; `--source` one of the two. */
function readQuery(flags: {readonly tail?: number; readonly since?: string; readonly source?: string}, now = Date.now()): LogQuery {
	if (flags.tail !== undefined && flags.since !== undefined) {
		throw new UsageError('give --tail or --since, not both');
	}

	if (flags.tail !== undefined && !(Number.isInteger(flags.tail) && flags.tail >= 0 && flags.tail <= 5000)) {
		throw new UsageError(`--tail is a whole number from 0 to 5000; got ${flags.tail}`);
	}

	if (flags.source !== undefined && flags.source !== 'container' && flags.source !== 'system') {
		throw new UsageError(`--source is container or system; got ${flags.source}`);
	}

	const {source} = flags;
	return {
		...(flags.since === undefined ? {tail: flags.tail ?? defaultLogTail} : {since: readMoment('--since', flags.since, now)}),
		...(source ? {source} : {}),
	};
}

/** What the operands name, or a UsageError saying how to call it. */
function readNames(input: readonly string[], all: boolean): LogNames {
	const [what, first, second, ...rest] = input;
	if (what === 'pod' && first && !second && !all) {
		return {kind: 'pod', pod: first};
	}

	if (what === 'worker' && first && rest.length === 0) {
		if (all && !second) {
			return {kind: 'endpoint', endpoint: first};
		}

		if (!all && second) {
			return {kind: 'worker', endpoint: first, worker: second};
		}
	}

	throw new UsageError(subcommandUsage('logs', what));
}

/** Prints each new line of the session once, in order; says on stderr when the buffer dropped some before they were printed. */
function createPrinter(
	session: LogSession,
	{jsonl, merged, colour, limit}: {readonly jsonl: boolean; readonly merged: boolean; readonly colour: boolean; readonly limit?: number},
) {
	let printed = 0;
	/** Without -f, `--tail N` prints N lines of each stream: a live line that came with the backlog's last is not one of them. */
	const perOrigin = new Map<string, number>();
	const originKind = session.subject.kind === 'pod' ? 'pod' : 'worker';
	return () => {
		const {lines} = session.snapshot();
		const start = lines.findIndex(line => line.seq > printed);
		if (start === -1) {
			return;
		}

		const skipped = lines[start]!.seq - printed - 1;
		if (skipped > 0) {
			process.stderr.write(`podtop: ${skipped} lines dropped before they were printed (the buffer holds ${logBufferLines})\n`);
		}

		const shown = lines.slice(start).filter(line => {
			if (line.note) {
				// A merged view's word of a worker joining or leaving is the view's: stdout is the service's lines (a gone stream is said on stderr).
				return false;
			}

			const count = (perOrigin.get(line.origin) ?? 0) + 1;
			perOrigin.set(line.origin, count);
			return limit === undefined || count <= limit;
		});
		printed = lines.at(-1)!.seq;
		if (shown.length > 0) {
			process.stdout.write(`${shown.map(line => (jsonl ? logLineJson(line, originKind) : formatLogLine(line, {merged, colour}))).join('\n')}\n`);
		}
	};
}

/** Says on stderr each stream's change of state worth knowing (reconnecting, gone, failed), once per change. */
function createStateReporter(session: LogSession) {
	const said = new Map<string, string>();
	return () => {
		for (const stream of session.snapshot().streams) {
			const key = `${stream.state}:${stream.reason ?? ''}`;
			if (said.get(stream.origin) === key) {
				continue;
			}

			said.set(stream.origin, key);
			if (stream.state === 'reconnecting' || stream.state === 'gone' || stream.state === 'failed') {
				process.stderr.write(`podtop: ${stream.origin}: ${stream.state}${stream.reason ? `: ${stream.reason}` : ''}\n`);
			}
		}
	};
}

/** The error a stream that stopped by itself ends the command with (exit 4 for a gone one that never gave a line, 3 a refused key). */
function endingError(session: LogSession, label: string): Error | undefined {
	const {streams, lines} = session.snapshot();
	const gone = streams.filter(stream => stream.state === 'gone');
	const failed = streams.find(stream => stream.state === 'failed');
	if (failed) {
		return new ApiError(failed.refusal ?? 'server', failed.reason ?? `${label}: failed`);
	}

	const {subject} = session;
	if (subject.kind === 'endpoint' && gone.some(stream => stream.origin === subject.endpointId)) {
		return new NotFoundError(`${label} is gone`);
	}

	if (session.subject.kind !== 'endpoint' && gone.length > 0 && lines.length === 0) {
		return new NotFoundError(`${label} is gone, or never was: the service keeps the logs of active workers and existing pods only`);
	}

	return undefined;
}

async function follow(session: LogSession, options: {readonly follow: boolean; readonly tail?: number}): Promise<void> {
	if (options.follow) {
		// Until Ctrl-C, or until every stream stopped by itself (a pod or worker gone, a refusal).
		const over = new Promise<void>(resolve => {
			const check = () => {
				const {streams} = session.snapshot();
				if (streams.length > 0 && streams.every(stream => stream.state === 'gone' || stream.state === 'failed') && session.subject.kind !== 'endpoint') {
					resolve();
				}
			};

			session.subscribe(check);
		});
		await Promise.race([untilSignal(), over]);
		return;
	}

	await untilBacklogRead(session, {tail: options.tail});
}

/** `podtop logs pod|worker …`: a log's backlog, or followed with -f. */
export async function runLogs(argv: readonly string[]): Promise<void> {
	const cli = parseCommandLine(logsHelp, argv, logsFlags, 'podtop logs');
	const {flags} = cli;
	const names = readNames(cli.input, flags.all);
	const query = readQuery(flags);
	const merged = names.kind === 'endpoint';
	const {target, budget, agent} = readConnectionFlags(flags);
	await withHeadlessEngine(target, {budget, agent, poll: []}, async engine => {
		if (!engine.openLogs) {
			throw new UsageError('logs need REST v2: the management API in use (GraphQL) publishes none (--management-api v2 or auto)');
		}

		const {subject, label} = await engine.resolveLogSubject(names);
		const session = engine.openLogs(subject, query);
		const print = createPrinter(session, {
			jsonl: flags.jsonl,
			merged,
			colour: Boolean(process.stdout.isTTY) && !flags.jsonl,
			limit: flags.follow ? undefined : query.tail,
		});
		const report = createStateReporter(session);
		const unsubscribe = session.subscribe(() => {
			print();
			report();
		});
		try {
			await follow(session, {follow: flags.follow, tail: query.tail});
			print();
			const error = endingError(session, label);
			if (error) {
				throw error;
			}

			if (merged && session.snapshot().streams.length === 0 && !flags.follow) {
				process.stderr.write(`podtop: ${label} has no active workers\n`);
			}
		} finally {
			unsubscribe();
			session.close();
		}
	});
}
