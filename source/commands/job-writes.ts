import {nameWithId} from '../engine/find-named.js';
import {inertJson, sanitizeLine} from '../format/sanitize.js';
import {UsageError} from '../lib/usage-error.js';
import {connectionHelp, readConnectionFlags} from './connection-flags.js';
import {withHeadlessEngine} from './headless-engine.js';
import {writeTarget} from './write-target.js';
import {parseCommandLine} from './parse-command-line.js';
import {reportWrite} from './write-verb.js';
import {commandFlags} from './command-flags.js';

const exitHelp = `
	Exit status: 0 done, 1 the service refused (say, retry of a COMPLETED job), 2 usage, 3 authentication,
	4 no such endpoint or job, 5 network or timeout (a write that may have happened is not sent again),
	6 refused by read-only mode.`;

export const cancelHelp = `
	Usage
	  $ podtop cancel <endpoint> <job_id> [--json]

	Cancels a queued or running job. Sent once; recorded in the audit log.
${connectionHelp}
${exitHelp}
`;

export const retryHelp = `
	Usage
	  $ podtop retry <endpoint> <job_id> [--json]

	Queues a FAILED or TIMED_OUT job again (same id), while its result still exists.
${connectionHelp}
${exitHelp}
`;

export const purgeHelp = `
	Usage
	  $ podtop purge <endpoint> --yes [--json]

	Removes every queued job of the endpoint (its id or its name); running jobs are untouched. Without
	--yes it says what would be purged and sends nothing (exit 2), or that the queue is empty (exit 0).
	The service allows 2 purges per 10 s.
${connectionHelp}
${exitHelp}
`;

/** `podtop cancel` and `podtop retry`: one job, one write. */
export async function runJobWrite(verb: 'cancel' | 'retry', argv: readonly string[]): Promise<void> {
	const cli = parseCommandLine(verb === 'cancel' ? cancelHelp : retryHelp, argv, commandFlags[verb], `podtop ${verb}`);
	const [endpointText, jobId, ...rest] = cli.input;
	if (!endpointText || !jobId || rest.length > 0) {
		throw new UsageError(`usage: podtop ${verb} <endpoint> <job_id>`);
	}

	const {target, budget, readOnly, readOnlyReason, auditPath, agent} = readConnectionFlags(cli.flags);
	await withHeadlessEngine(target, {budget, readOnly, readOnlyReason, auditPath, agent, poll: []}, async engine => {
		const endpoint = await writeTarget(engine, 'endpoint', endpointText);
		const result = await engine.perform(verb === 'cancel' ? 'job.cancel' : 'job.retry', {endpointId: endpoint.id, jobId}, undefined);
		reportWrite(
			result,
			cli.flags.json,
			value => `${verb === 'cancel' ? 'cancelled' : 'queued again'}: job ${value.id} on ${nameWithId(endpoint)} is ${value.status}`,
		);
	});
}

/** `podtop purge`: asks for --yes, says what the queue holds, then purges once. */
export async function runPurge(argv: readonly string[]): Promise<void> {
	const cli = parseCommandLine(purgeHelp, argv, commandFlags.purge, 'podtop purge');
	const [endpointText, ...rest] = cli.input;
	if (!endpointText || rest.length > 0) {
		throw new UsageError('usage: podtop purge <endpoint> --yes');
	}

	const {target, budget, readOnly, readOnlyReason, auditPath, agent} = readConnectionFlags(cli.flags);
	await withHeadlessEngine(target, {budget, readOnly, readOnlyReason, auditPath, agent, poll: [], endpointFilter: [endpointText]}, async engine => {
		// Read-only mode refuses before anything is read or sent.
		if (readOnly) {
			reportWrite(await engine.perform('endpoint.purge-queue', {endpointId: endpointText}, undefined), cli.flags.json, () => '');
			return;
		}

		const endpoint = await writeTarget(engine, 'endpoint', endpointText);
		if (!cli.flags.yes) {
			const {jobs} = await engine.health(endpoint.id);
			if (jobs.inQueue === 0) {
				// Nothing to confirm: an empty queue is said so, and nothing is sent (exit 0).
				process.stdout.write(
					cli.flags.json
						? `${inertJson({outcome: 'nothing-to-purge', inQueue: 0, inProgress: jobs.inProgress})}\n`
						: `${sanitizeLine(`nothing to purge: the queue of ${nameWithId(endpoint)} is empty (${jobs.inProgress} running)`)}\n`,
				);
				return;
			}

			throw new UsageError(`would purge ${jobs.inQueue} queued job(s) of ${nameWithId(endpoint)} (running jobs are untouched); add --yes to purge`);
		}

		const result = await engine.perform('endpoint.purge-queue', {endpointId: endpoint.id}, undefined);
		reportWrite(result, cli.flags.json, value => `purged: ${value.removed} queued job(s) removed from ${nameWithId(endpoint)}; running jobs untouched`);
	});
}
