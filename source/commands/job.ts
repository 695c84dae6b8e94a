import {sanitizeText} from '../format/sanitize.js';
import {followJob} from '../headless/follow-job.js';
import {UsageError} from '../lib/usage-error.js';
import {connectionHelp, readConnectionFlags} from './connection-flags.js';
import {displayHelp} from './dashboard-flags.js';
import {checkSavePath, finishImage, imageHelp} from './finish-image.js';
import {finishJob} from './finish-job.js';
import {withHeadlessEngine} from './headless-engine.js';
import {parseCommandLine, withProfile} from './parse-command-line.js';
import {commandFlags} from './command-flags.js';

export const jobHelp = `
	Usage
	  $ podtop job <endpoint> <job_id> [options]

	In a terminal: opens the dashboard straight into the job's live stream.
	Without one (a pipe, a file), or with --json or --save: prints the stream to stdout as it
	arrives and exits with the job, like tail -f; a job that streamed nothing prints its output at
	the end. Escape sequences and control characters in the output are shown inert.

	Options
	  --json            Without a terminal: stdout is one line, the final status (id, status,
	                    delayTime, executionTime, output or error)

	Exit status: 0 COMPLETED, 1 FAILED, TIMED_OUT or CANCELLED (the error on stderr), 2 usage,
	3 authentication failed, 4 no such job or endpoint, 5 network or timeout.
${imageHelp}
${connectionHelp}
${displayHelp}

	Examples
	  $ podtop job abc123 2f4e…-u1
	  $ podtop job abc123 2f4e…-u1 | tee job.log
	  $ podtop job black-forest-labs-flux-1-dev 2f4e…-u1 --save fox.jpg
`;

export async function runJob(argv: readonly string[]): Promise<void> {
	const cli = parseCommandLine(jobHelp, argv, commandFlags.job, 'podtop job');
	const [endpointId, jobId] = cli.input;
	if (!endpointId || !jobId || cli.input.length !== 2) {
		throw new UsageError('usage: podtop job <endpoint> <job_id>');
	}

	checkSavePath(cli.flags.save, cli.flags.force);
	const connection = readConnectionFlags(cli.flags);
	if (process.stdout.isTTY && process.stdin.isTTY && !cli.flags.json && cli.flags.save === undefined) {
		const {runDashboard} = await import('./dashboard.js');
		const options = (flags: typeof cli.flags) => ({...readConnectionFlags(flags), color: flags.color, ascii: flags.ascii});
		await runDashboard({
			...options(cli.flags),
			initialJob: {endpointId, jobId},
			// `:profile NAME`: this command line read again with `--profile NAME` (the list of that account opens).
			forProfile: name => options(parseCommandLine(jobHelp, withProfile(argv, commandFlags.job, 'podtop job', name), commandFlags.job, 'podtop job').flags),
		});
		return;
	}

	const {target, budget, agent} = connection;
	await withHeadlessEngine(target, {budget, agent, poll: ['jobs']}, async engine => {
		const stop = new AbortController();
		const onSignal = () => {
			stop.abort();
		};

		process.once('SIGINT', onSignal);
		process.once('SIGTERM', onSignal);
		const endpoint = await engine.resolve('endpoint', endpointId);
		engine.start();
		try {
			const {job, streamed} = await followJob(
				engine,
				endpoint.id,
				jobId,
				text => {
					if (!cli.flags.json) {
						process.stdout.write(sanitizeText(text));
					}
				},
				stop.signal,
			);
			if (stop.signal.aborted) {
				process.exitCode = 130;
				return;
			}

			finishJob(job, streamed, cli.flags.json);
			const policy = {allow: connection.imageAllow, trustedHosts: () => [engine.store.getState().apiHost]};
			await finishImage(job, {save: cli.flags.save, force: cli.flags.force, json: cli.flags.json, color: cli.flags.color, ascii: cli.flags.ascii, policy});
		} finally {
			process.off('SIGINT', onSignal);
			process.off('SIGTERM', onSignal);
		}
	});
}
