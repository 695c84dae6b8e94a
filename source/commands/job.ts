import meow from 'meow';
import {describeError} from '../api/errors.js';
import {redact} from '../api/redact.js';
import {createEngine} from '../engine/create-engine.js';
import {resolveTarget} from '../engine/resolve-target.js';
import {sanitizeText} from '../format/sanitize.js';
import {tailJob} from '../headless/tail-job.js';
import {connectionFlags, connectionHelp, readConnectionFlags} from './connection-flags.js';
import {displayFlags, displayHelp} from './dashboard-flags.js';
import {runDashboard} from './dashboard.js';
import {exitCodeFor} from './exit-code.js';

export const jobHelp = `
	Usage
	  $ podtop job <endpoint_id> <job_id> [options]

	In a terminal: opens the dashboard straight into the job's live stream.
	Without one (a pipe, a file): prints the stream to stdout as it arrives and exits with the job,
	like tail -f. Escape sequences and control characters in the output are shown inert.

	Exit status: 0 COMPLETED, 1 FAILED, TIMED_OUT or CANCELLED (the error on stderr),
	3 authentication failed, 4 no such job or endpoint, 5 network or timeout.
${connectionHelp}
${displayHelp}

	Examples
	  $ podtop job abc123 2f4e…-u1
	  $ podtop job abc123 2f4e…-u1 | tee job.log
`;

export async function runJob(argv: readonly string[]): Promise<void> {
	const cli = meow(jobHelp, {importMeta: import.meta, argv: [...argv], flags: {...connectionFlags, ...displayFlags}});
	const [endpointId, jobId] = cli.input;
	if (!endpointId || !jobId || cli.input.length !== 2) {
		process.stderr.write('podtop: usage: podtop job <endpoint_id> <job_id>\n');
		process.exitCode = 2;
		return;
	}

	const {target, endpointFilter, budget} = readConnectionFlags(cli.flags);
	if (process.stdout.isTTY && process.stdin.isTTY) {
		await runDashboard({target, endpointFilter, budget, color: cli.flags.color, ascii: cli.flags.ascii, initialJob: {endpointId, jobId}});
		return;
	}

	const resolved = resolveTarget(target);
	for (const warning of resolved.warnings) {
		process.stderr.write(`podtop: ${warning}\n`);
	}

	const engine = await createEngine({target: resolved, budget});
	const stop = new AbortController();
	const onSignal = () => stop.abort();
	process.once('SIGINT', onSignal);
	process.once('SIGTERM', onSignal);
	try {
		const final = await tailJob(engine.api, endpointId, jobId, text => process.stdout.write(sanitizeText(text)), {signal: stop.signal});
		if (final.status === 'COMPLETED') {
			process.exitCode = 0;
		} else if (stop.signal.aborted) {
			process.exitCode = 130;
		} else {
			process.stderr.write(`podtop: job ${final.status}${final.error ? `: ${sanitizeText(final.error)}` : ''}\n`);
			process.exitCode = 1;
		}
	} catch (error) {
		process.stderr.write(`podtop: ${redact(describeError(error), resolved.mode === 'live' ? resolved.apiKey : undefined)}\n`);
		process.exitCode = exitCodeFor(error);
	} finally {
		process.off('SIGINT', onSignal);
		process.off('SIGTERM', onSignal);
		await engine.close();
	}
}
