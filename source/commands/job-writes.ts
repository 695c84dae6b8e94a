import {UsageError} from '../lib/usage-error.js';
import {connectionHelp, readConnectionFlags} from './connection-flags.js';
import {withHeadlessEngine} from './headless-engine.js';
import {parseCommandLine} from './parse-command-line.js';
import {reportWrite} from './write-verb.js';
import {commandFlags} from './command-flags.js';

const exitHelp = `
	Exit status: 0 done, 1 the service refused (say, retry of a COMPLETED job), 2 usage, 3 authentication,
	4 no such endpoint or job, 5 network or timeout (a write that may have happened is not sent again),
	6 refused by read-only mode.`;

export const cancelHelp = `
	Usage
	  $ podtop cancel <endpoint_id> <job_id> [--json]

	Cancels a queued or running job. Sent once; recorded in the audit log.
${connectionHelp}
${exitHelp}
`;

export const retryHelp = `
	Usage
	  $ podtop retry <endpoint_id> <job_id> [--json]

	Queues a FAILED or TIMED_OUT job again (same id), while its result still exists.
${connectionHelp}
${exitHelp}
`;

export const purgeHelp = `
	Usage
	  $ podtop purge <endpoint_id> --yes [--json]

	Removes every queued job of the endpoint; running jobs are untouched. Without --yes it says what
	would be purged and sends nothing (exit 2). The service allows 2 purges per 10 s.
${connectionHelp}
${exitHelp}
`;

/** `podtop cancel` and `podtop retry`: one job, one write. */
export async function runJobWrite(verb: 'cancel' | 'retry', argv: readonly string[]): Promise<void> {
	const cli = parseCommandLine(verb === 'cancel' ? cancelHelp : retryHelp, argv, commandFlags[verb], `podtop ${verb}`);
	const [endpointId, jobId, ...rest] = cli.input;
	if (!endpointId || !jobId || rest.length > 0) {
		throw new UsageError(`usage: podtop ${verb} <endpoint_id> <job_id>`);
	}

	const {target, budget, readOnly, readOnlyReason, auditPath, agent} = readConnectionFlags(cli.flags);
	await withHeadlessEngine(target, {budget, readOnly, readOnlyReason, auditPath, agent, poll: []}, async engine => {
		const result = await engine.perform(verb === 'cancel' ? 'job.cancel' : 'job.retry', {endpointId, jobId}, undefined);
		reportWrite(result, cli.flags.json, value => `${verb === 'cancel' ? 'cancelled' : 'queued again'}: job ${value.id} on ${endpointId} is ${value.status}`);
	});
}

/** `podtop purge`: asks for --yes, says what the queue holds, then purges once. */
export async function runPurge(argv: readonly string[]): Promise<void> {
	const cli = parseCommandLine(purgeHelp, argv, commandFlags.purge, 'podtop purge');
	const [endpointId, ...rest] = cli.input;
	if (!endpointId || rest.length > 0) {
		throw new UsageError('usage: podtop purge <endpoint_id> --yes');
	}

	const {target, budget, readOnly, readOnlyReason, auditPath, agent} = readConnectionFlags(cli.flags);
	await withHeadlessEngine(target, {budget, readOnly, readOnlyReason, auditPath, agent, poll: [], endpointFilter: [endpointId]}, async engine => {
		if (!cli.flags.yes) {
			// Read-only mode refuses before anything is read or sent.
			if (readOnly) {
				reportWrite(await engine.perform('endpoint.purge-queue', {endpointId}, undefined), cli.flags.json, () => '');
				return;
			}

			const health = await engine.health(endpointId);
			throw new UsageError(`would purge ${health.jobs.inQueue} queued job(s) of ${endpointId} (running jobs are untouched); add --yes to purge`);
		}

		const result = await engine.perform('endpoint.purge-queue', {endpointId}, undefined);
		reportWrite(result, cli.flags.json, value => `purged: ${value.removed} queued job(s) removed from ${endpointId}; running jobs untouched`);
	});
}
