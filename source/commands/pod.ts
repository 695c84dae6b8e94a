import type {PodRecord} from '../model/pod.js';
import {nameWithId} from '../engine/find-named.js';
import {sanitizeLine} from '../format/sanitize.js';
import {UsageError} from '../lib/usage-error.js';
import {describeCost} from '../store/pod-figures.js';
import {isSubcommand, subcommandUsage} from './command-list.js';
import {connectionHelp, readConnectionFlags} from './connection-flags.js';
import {withHeadlessEngine} from './headless-engine.js';
import {writeTarget} from './write-target.js';
import {parseCommandLine} from './parse-command-line.js';
import {reportWrite} from './write-verb.js';
import {podFlags} from './command-flags.js';

export const podHelp = `
	Usage
	  $ podtop pod stop <pod> [--json]
	  $ podtop pod resume <pod> [--gpu-count N] [--bid PRICE] [--json]
	  $ podtop pod terminate <pod> --yes [--json]
	  $ podtop pod deploy --gpu-type TYPE --image IMAGE [options]   (see podtop pod deploy --help)

	<pod> is its id or its name; a name two pods share, or none has, lists them with their ids (exit 4).

	stop        Stops a running pod: its container disk is wiped, its volume is kept, GPUs are freed.
	resume      Starts a stopped pod again (on-demand). A spot pod needs --bid: dollars per GPU per
	            hour, at least the GPU type's current minimum bid.
	terminate   Deletes the pod for good: its volume is lost. Without --yes it says what it would
	            delete and sends nothing (exit 2).

	Every write is sent once and recorded in the audit log.
${connectionHelp}

	Exit status: 0 done, 1 the service refused (say, no free GPUs), 2 usage, 3 authentication,
	4 no such pod, 5 network or timeout (a write that may have happened is not sent again), 6 read-only.

	Examples
	  $ podtop pod stop abc123xyz
	  $ podtop pod resume abc123xyz --bid 0.25
`;

/** `podtop pod stop|resume|terminate`: one pod, one write. */
export async function runPod(argv: readonly string[]): Promise<void> {
	if (argv[0] === 'deploy') {
		const {runPodDeploy} = await import('./pod-deploy.js');
		await runPodDeploy(argv.slice(1));
		return;
	}

	const cli = parseCommandLine(podHelp, argv, podFlags, 'podtop pod');
	const [action, podText, ...rest] = cli.input;
	// deploy is taken above when it comes first; anywhere else it is a mistake, not another verb.
	if (!isSubcommand('pod', action) || action === 'deploy' || !podText || rest.length > 0) {
		throw new UsageError(subcommandUsage('pod', action));
	}

	const {flags} = cli;
	if (flags.gpuCount !== undefined && !(Number.isInteger(flags.gpuCount) && flags.gpuCount >= 0 && flags.gpuCount <= 8)) {
		throw new UsageError(`--gpu-count is a whole number from 0 to 8; got ${flags.gpuCount}`);
	}

	if (flags.bid !== undefined && !(Number.isFinite(flags.bid) && flags.bid > 0)) {
		throw new UsageError(`--bid is dollars per GPU per hour, more than 0; got ${flags.bid}`);
	}

	if (action !== 'resume' && (flags.bid !== undefined || flags.gpuCount !== undefined)) {
		throw new UsageError('--bid and --gpu-count go with resume');
	}

	const {target, budget, readOnly, readOnlyReason, auditPath, agent} = readConnectionFlags(flags);
	await withHeadlessEngine(target, {budget, readOnly, readOnlyReason, auditPath, agent, poll: []}, async engine => {
		const named = await writeTarget(engine, 'pod', podText);
		const podId = named.id;
		const done = (verb: string) => (pod: PodRecord) =>
			`${verb}: pod ${nameWithId({id: pod.id, name: pod.name ?? ''})} is ${sanitizeLine(pod.desiredStatus ?? '?')}, ${describeCost(pod)}`;
		switch (action) {
			case 'stop': {
				reportWrite(await engine.perform('pod.stop', {podId}, undefined), flags.json, done('stopped (container disk wiped, volume kept)'));
				return;
			}

			case 'resume': {
				const result =
					flags.bid === undefined
						? await engine.perform('pod.resume', {podId}, {gpuCount: flags.gpuCount})
						: await engine.perform('pod.bid-resume', {podId}, {bidPerGpu: flags.bid, gpuCount: flags.gpuCount});
				reportWrite(result, flags.json, done('resumed'));
				return;
			}

			default: {
				if (!flags.yes && !readOnly) {
					const pod = await engine.pod(podId);
					if (!pod) {
						throw new UsageError(`no pod ${podId} in this account`);
					}

					throw new UsageError(
						`would terminate pod ${nameWithId({id: pod.id, name: pod.name ?? ''})}, ${sanitizeLine(pod.desiredStatus ?? '?')}; its volume is lost for good. Add --yes to terminate`,
					);
				}

				reportWrite(
					await engine.perform('pod.terminate', {podId}, undefined),
					flags.json,
					() => `terminated: pod ${nameWithId(named)} is gone, with its volume`,
				);
			}
		}
	});
}
