import type {Engine} from '../engine/create-engine.js';
import {LoadRun, type LoadSummary} from '../engine/load-run.js';
import type {PerformResult} from '../engine/perform.js';
import {inertJson, sanitizeLine} from '../format/sanitize.js';
import {loadSummaryText} from '../headless/load-text.js';
import {UsageError} from '../lib/usage-error.js';
import {askYesNo} from './ask-yes-no.js';
import {commandFlags} from './command-flags.js';
import {connectionHelp, readConnectionFlags} from './connection-flags.js';
import {displayHelp} from './dashboard-flags.js';
import {exitCodeFor, exitCodes, exitCodeForWrite} from './exit-code.js';
import {withHeadlessEngine} from './headless-engine.js';
import {writeTarget} from './write-target.js';
import {checkBodySize, readJobInput} from './job-input.js';
import {loadCost, loadIntent, loadShape} from './load-plan.js';
import {parseCommandLine} from './parse-command-line.js';

export const loadHelp = `
	Usage
	  $ podtop load <endpoint> --input JSON|@file|- [--rate 5/s] [--duration 60s | --jobs N] [options]

	Sends jobs at a steady rate and follows each to its end by the cheapest route (/runsync's answer,
	else /status reads timed by each job's state, within the budgets), then reports: jobs sent,
	queued, running, done and failed; delay, execution and total time at p50, p90, p95, p99 and max
	(the service's delayTime and executionTime); a histogram; cold starts; throughput; errors grouped
	by message. In a terminal a live view; without one, or with --json, one summary at the end.

	It says what it will send and asks y/N first (--yes skips the question; without a terminal
	--yes is needed). A rate above podtop's share of the /run (or /runsync) limit is refused before
	anything is sent, saying the most it may send. Each job is sent once: a failed submit is counted,
	never re-sent. Ctrl-C stops sending, says how many jobs are still queued and offers to cancel
	them; a second Ctrl-C stops following. The run is one write in the audit log (endpoint.load,
	with its count and summary), and history's timeline shows it (podtop events --type load).

	Options
	  --input          The job's input: JSON, @file.json, or - for standard input
	  --rate           Jobs per second or minute: 5/s, 30/m  [default: 5/s]
	  --duration       How long to send: 60s, 5m (jobs = rate × duration)  [default: 60s]
	  --jobs           How many jobs to send, instead of --duration
	  --concurrency    Most jobs sent and not yet ended at once (sending waits for one to end)
	  --sync           Send through /runsync (each answer may be the result: no status reads)
	  --yes            Send without asking
	  --json           One summary document on stdout at the end (no live view)
${connectionHelp}
${displayHelp}

	Exit status: 0 every job COMPLETED, 1 jobs failed or the service refused some, 2 usage (nothing
	sent; also a rate over the budget), 3 authentication, 4 no such endpoint, 5 network, 6 read-only.

	Examples
	  $ podtop load abc123 --input '{"prompt": "Hello"}' --rate 2/s --duration 30s
	  $ podtop load abc123 --input @job.json --jobs 500 --rate 10/s --yes --json | jq .total
`;

/** Sets the exit status from the run: the refusal that stopped it, else 1 when any job or submit failed. */
function exitCodeOf(summary: LoadSummary, fatal: unknown): number {
	if (summary.stopped === 'refused' && fatal !== undefined) {
		return exitCodeFor(fatal);
	}

	const {jobs} = summary;
	return jobs.failed + jobs.timedOut + jobs.lost + jobs.submitErrors > 0 ? exitCodes.failed : exitCodes.ok;
}

/** Reports the write: the summary (one JSON document, or text) on stdout; a refusal on stderr. */
export function finishLoad(result: PerformResult<'endpoint.load'>, run: LoadRun, json: boolean, ascii: boolean): void {
	if (result.auditError) {
		process.stderr.write(`podtop: ${sanitizeLine(result.auditError)}\n`);
	}

	if (result.outcome !== 'ok' || !result.value) {
		if (json) {
			process.stdout.write(`${inertJson({outcome: result.outcome, error: result.message})}\n`);
		}

		process.stderr.write(`podtop: ${sanitizeLine(result.message)}\n`);
		process.exitCode = exitCodeForWrite(result.outcome, result.error);
		return;
	}

	const summary = result.value;
	process.stdout.write(json ? `${inertJson(summary)}\n` : loadSummaryText(summary, ascii ? '#' : '█'));
	process.exitCode = exitCodeOf(summary, run.fatal);
}

/** Without a live view: Ctrl-C stops sending and, in a terminal, offers to cancel the queued jobs; a second stops following. */
async function loadHeadless(engine: Engine, run: LoadRun): Promise<PerformResult<'endpoint.load'>> {
	let interrupts = 0;
	const onSignal = () => {
		interrupts++;
		if (interrupts > 1) {
			run.stopFollowing();
			return;
		}

		run.stopSending();
		const queued = run.queuedIds().length;
		process.stderr.write(`podtop: stopped sending; ${queued} job${queued === 1 ? '' : 's'} still queued\n`);
		if (queued === 0) {
			return;
		}

		if (!process.stdin.isTTY) {
			process.stderr.write(
				`podtop: not cancelled (no terminal to ask in); they run unless cancelled (podtop cancel ${sanitizeLine(run.plan.endpointId)} <id>)\n`,
			);
			return;
		}

		void askYesNo(`Cancel the ${queued} queued job${queued === 1 ? '' : 's'}? [y/N] `).then(async yes => {
			if (yes) {
				const cancelled = await run.cancelQueued();
				process.stderr.write(`podtop: cancelled ${cancelled} job${cancelled === 1 ? '' : 's'}\n`);
			}
		});
	};

	process.on('SIGINT', onSignal);
	process.on('SIGTERM', onSignal);
	try {
		return await engine.perform('endpoint.load', {endpointId: run.plan.endpointId}, {run});
	} finally {
		process.off('SIGINT', onSignal);
		process.off('SIGTERM', onSignal);
	}
}

export async function runLoad(argv: readonly string[]): Promise<void> {
	const cli = parseCommandLine(loadHelp, argv, commandFlags.load, 'podtop load');
	const [endpointId, ...rest] = cli.input;
	if (!endpointId || rest.length > 0) {
		throw new UsageError('usage: podtop load <endpoint> --input JSON|@file|- [--rate 5/s] [--duration 60s | --jobs N]');
	}

	const {flags} = cli;
	const connection = readConnectionFlags(flags);
	const shape = loadShape(flags, connection.budget);
	const input = readJobInput(flags.input);
	const request = {input};
	checkBodySize(request, flags.sync);
	const cost = loadCost(endpointId, input, shape.jobs);
	const intent = loadIntent(endpointId, shape, flags.sync, cost);
	const canAsk = Boolean(process.stdin.isTTY && process.stderr.isTTY);
	if (!connection.readOnly && !flags.yes && !canAsk) {
		throw new UsageError(`podtop load would send ${intent}: add --yes to send it without a terminal to ask in`);
	}

	const live = Boolean(process.stdout.isTTY && process.stdin.isTTY) && !flags.json;
	const {target, budget, readOnly, readOnlyReason, auditPath} = connection;
	await withHeadlessEngine(target, {budget, readOnly, readOnlyReason, auditPath, poll: [], agent: false, history: {disabled: true}}, async engine => {
		const {id} = await writeTarget(engine, 'endpoint', endpointId);
		const run = new LoadRun({endpointId: id, request, ...shape, sync: flags.sync ? {} : undefined});
		// Read-only: perform refuses it (exit 6, in the audit log) before anything is sent or asked.
		if (!engine.readOnly) {
			process.stderr.write(`podtop: load sends ${sanitizeLine(intent)}\n`);
			if (!flags.yes && !(await askYesNo('Send? [y/N] '))) {
				process.stderr.write('podtop: nothing sent\n');
				return;
			}
		}

		if (live && !engine.readOnly) {
			const {loadLive} = await import('./load-live.js');
			finishLoad(await loadLive(engine, run, {color: flags.color, ascii: flags.ascii}), run, false, flags.ascii);
			return;
		}

		finishLoad(await loadHeadless(engine, run), run, flags.json, flags.ascii);
	});
}
