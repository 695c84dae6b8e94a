import type {JobRequest} from '../api/job-types.js';
import {inertJson, sanitizeText} from '../format/sanitize.js';
import {nameWithId} from '../engine/find-named.js';
import {followJob} from '../headless/follow-job.js';
import {UsageError} from '../lib/usage-error.js';
import {formatCost} from '../format/numbers.js';
import {connectionHelp, readConnectionFlags} from './connection-flags.js';
import {withHeadlessEngine} from './headless-engine.js';
import {writeTarget} from './write-target.js';
import {hasImageFlags, imageJobInput} from './image-input.js';
import {checkBodySize, jobPolicy, readJobInput, webhookUrl} from './job-input.js';
import {displayHelp} from './dashboard-flags.js';
import {checkSavePath, finishImage, imageHelp} from './finish-image.js';
import {finishJob} from './finish-job.js';
import {parseCommandLine} from './parse-command-line.js';
import {reportWrite} from './write-verb.js';
import {commandFlags} from './command-flags.js';

export const runHelp = `
	Usage
	  $ podtop run <endpoint> --input JSON|@file|- [options]
	  $ podtop run black-forest-labs-flux-1-schnell --prompt TEXT [image options]

	<endpoint> is its id or its name. Submits one job, writes its id to stderr as soon as it is known, follows its stream to stdout
	(like podtop job) and prints its output at the end. Sent once: a run that fails after sending
	is reported as "may have happened", never re-sent.

	Options
	  --input               The job's input: JSON, @file.json, or - for standard input
	  --sync                Use /runsync (waits for the result; 20 MB instead of 10 MB)
	  --wait                With --sync: how long the service holds the answer (ms, 1000–300000)
	  --webhook             URL the service calls when the job ends (http or https)
	  --execution-timeout   policy.executionTimeout (ms, over 5000)
	  --ttl                 policy.ttl: queue plus execution (ms, 10000 to 7 days)
	  --low-priority        policy.lowPriority: waits behind the rest, never triggers scaling
	  --no-follow           Print the id (with --json the service's answer) and exit 0
	  --json                stdout is one line: the final status (id, status, delayTime,
	                        executionTime, output or error)
	  --dry-run             Print the request (and an image's cost) and send nothing

	Image models (black-forest-labs-flux-1-dev, black-forest-labs-flux-1-schnell)
	  --prompt              What to draw (required); builds the input instead of --input
	  --width, --height     Pixels, multiples of 16 from 256 to 1536 (default 1024)
	  --steps               Inference steps: dev 1–50 (default 28), schnell 1–8 (default 4)
	  --guidance            0 to 10 (default 3.5)
	  --seed                -1 for random (default), or a whole number
	  --format              jpeg (default) or png
${imageHelp}
${connectionHelp}
${displayHelp}

	Exit status: 0 COMPLETED, 1 FAILED, CANCELLED or TIMED_OUT (or the service refused), 2 bad input
	(nothing sent), 3 authentication, 4 no such endpoint, 5 network or timeout, 6 read-only.

	Examples
	  $ podtop run abc123 --input '{"prompt": "Hello"}'
	  $ podtop run abc123 --input @job.json --json | jq .output
	  $ podtop run black-forest-labs-flux-1-dev --prompt "a red fox" --width 768 --dry-run
	  $ podtop run black-forest-labs-flux-1-schnell --prompt "a red fox" --format png --save fox.png
`;

export async function runRun(argv: readonly string[]): Promise<void> {
	const cli = parseCommandLine(runHelp, argv, commandFlags.run, 'podtop run');
	const [endpointText, ...rest] = cli.input;
	if (!endpointText || rest.length > 0) {
		throw new UsageError('usage: podtop run <endpoint> --input JSON|@file|- (or --prompt TEXT for an image model)');
	}

	const {flags} = cli;
	if (flags.wait !== undefined && !(flags.sync && Number.isInteger(flags.wait) && flags.wait >= 1000 && flags.wait <= 300_000)) {
		throw new UsageError(flags.sync ? `--wait is in milliseconds, 1000 to 300000; got ${flags.wait}` : '--wait goes with --sync');
	}

	const policy = jobPolicy(flags);
	const webhook = webhookUrl(flags.webhook);
	if (flags.input !== undefined && hasImageFlags(flags)) {
		throw new UsageError('give the input one way: --input JSON, or --prompt with the image options');
	}

	if (flags.save !== undefined && !flags.follow) {
		throw new UsageError('--save waits for the job to finish; it cannot go with --no-follow');
	}

	checkSavePath(flags.save, flags.force);
	const {input, cost} = hasImageFlags(flags) ? imageJobInput(endpointText, flags) : {input: readJobInput(flags.input), cost: undefined};
	const request: JobRequest = {input, ...(webhook ? {webhook} : {}), ...(policy ? {policy} : {})};
	const bytes = checkBodySize(request, flags.sync);
	if (flags.dryRun) {
		const route = flags.sync ? `/runsync${flags.wait === undefined ? '' : `?wait=${flags.wait}`}` : '/run';
		process.stdout.write(`${JSON.stringify({endpoint: endpointText, route, bytes, body: request, ...(cost === undefined ? {} : {cost})})}\n`);
		if (cost !== undefined && !flags.json) {
			process.stderr.write(`podtop: dry run, nothing sent; this image would cost ${formatCost(cost)}\n`);
		}

		return;
	}

	const {target, budget, readOnly, readOnlyReason, auditPath, agent, imageAllow} = readConnectionFlags(flags);
	await withHeadlessEngine(target, {budget, readOnly, readOnlyReason, auditPath, agent, poll: ['jobs']}, async engine => {
		const endpoint = await writeTarget(engine, 'endpoint', endpointText);
		const endpointId = endpoint.id;
		const result = await engine.perform('job.submit', {endpointId}, {request, sync: flags.sync ? {waitMs: flags.wait} : undefined});
		if (result.outcome !== 'ok' || !result.value) {
			reportWrite(result, flags.json, () => '');
			return;
		}

		const {id} = result.value;
		process.stderr.write(`podtop: job ${sanitizeText(id)} ${sanitizeText(result.value.status)} on ${nameWithId(endpoint)}\n`);
		if (!flags.follow) {
			process.stdout.write(flags.json ? `${inertJson(result.value)}\n` : `${id}\n`);
			return;
		}

		engine.start();
		const {job, streamed} = await followJob(engine, endpointId, id, text => {
			if (!flags.json) {
				process.stdout.write(sanitizeText(text));
			}
		});
		finishJob(job, streamed, flags.json);
		const policy = {allow: imageAllow, trustedHosts: () => [engine.store.getState().apiHost]};
		await finishImage(job, {save: flags.save, force: flags.force, json: flags.json, color: flags.color, ascii: flags.ascii, policy});
	});
}
