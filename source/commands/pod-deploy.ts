import {nameWithId} from '../engine/find-named.js';
import {formatDollarsPerHour} from '../format/numbers.js';
import {inertJson, sanitizeLine} from '../format/sanitize.js';
import {UsageError} from '../lib/usage-error.js';
import {marketOf, planDeploy, type DeployFields} from '../requests/deploy-request.js';
import {describeCost} from '../store/pod-figures.js';
import {connectionHelp, readConnectionFlags} from './connection-flags.js';
import {withHeadlessEngine} from './headless-engine.js';
import {parseCommandLine} from './parse-command-line.js';
import {reportWrite} from './write-verb.js';
import {commandFlags} from './command-flags.js';

export const deployHelp = `
	Usage
	  $ podtop pod deploy --gpu-type TYPE --image IMAGE [options]

	Rents a pod: on demand (podFindAndDeployOnDemand), or spot with --spot --bid PRICE
	(podRentInterruptable). Everything is checked before sending: the GPU type, the count, the bid
	against the current minimum for that count, the ports and the env. Sent once; audited.

	Options
	  --gpu-type         GPU type: its id or its name, as the GPUs pane shows it (e.g. "NVIDIA L4" or L4)
	  --count            GPUs, 0 (a CPU pod) to the type's maximum  [default: 1]
	  --cloud            secure, community or all                     [default: all]
	  --spot             Rent interruptible, at --bid dollars per GPU per hour
	  --bid              The spot bid per GPU; at least the current minimum bid
	  --image            Container image (required)
	  --name             Pod name
	  --container-disk   GB, wiped on stop                            [default: 20]
	  --volume           GB, kept on stop                             [default: 0]
	  --mount            Where the volume is mounted                  [default: /workspace]
	  --ports            e.g. 8888/http,22/tcp
	  --env              KEY=VALUE, repeatable
	  --min-vcpu, --min-memory   The least vCPU and GB of memory to accept
	  --dry-run          Print the request and its $/h; send nothing
	  --json             stdout is one line: the new pod (or the outcome)
${connectionHelp}

	Exit status: 0 deployed, 1 the service refused (no instances available: the stock is said),
	2 bad input (nothing sent), 3 authentication, 5 network or timeout (not sent again), 6 read-only.

	Examples
	  $ podtop pod deploy --gpu-type "NVIDIA L4" --image runpod/pytorch --ports 8888/http --dry-run
	  $ podtop pod deploy --gpu-type "NVIDIA L4" --spot --bid 0.2 --image runpod/pytorch --env HF_HOME=/workspace
`;

const flagNames: Readonly<Record<keyof DeployFields, string>> = {
	gpuTypeId: '--gpu-type',
	count: '--count',
	cloud: '--cloud',
	spot: '--spot',
	bid: '--bid',
	image: '--image',
	name: '--name',
	containerDisk: '--container-disk',
	volume: '--volume',
	mountPath: '--mount',
	ports: '--ports',
	env: '--env',
	minVcpu: '--min-vcpu',
	minMemory: '--min-memory',
};

/** `podtop pod deploy`. */
export async function runPodDeploy(argv: readonly string[]): Promise<void> {
	const cli = parseCommandLine(deployHelp, argv, commandFlags['pod deploy'], 'podtop pod deploy');
	const {flags} = cli;
	if (cli.input.length > 0) {
		throw new UsageError('usage: podtop pod deploy --gpu-type TYPE --image IMAGE [options]; see --help');
	}

	if (flags.bid !== undefined && !flags.spot) {
		throw new UsageError('--bid goes with --spot');
	}

	let fields: DeployFields = {
		gpuTypeId: flags.gpuType ?? '',
		count: flags.count ?? '',
		cloud: flags.cloud,
		spot: flags.spot,
		bid: flags.bid ?? '',
		image: flags.image ?? '',
		name: flags.name ?? '',
		containerDisk: flags.containerDisk ?? '',
		volume: flags.volume ?? '',
		mountPath: flags.mount ?? '',
		ports: flags.ports ?? '',
		env: flags.env ?? [],
		minVcpu: flags.minVcpu ?? '',
		minMemory: flags.minMemory ?? '',
	};
	const refuse = (problems: Partial<Record<keyof DeployFields, string>>) => {
		const said = Object.entries(problems).map(([field, problem]) => `${flagNames[field as keyof DeployFields]} ${problem}`);
		if (said.length > 0) {
			throw new UsageError(`${said.join('; ')} (nothing was sent)`);
		}
	};

	// What can be checked without the market first: a missing image must not wait for the network.
	refuse(planDeploy(fields).problems);
	const {target, budget, readOnly, readOnlyReason, auditPath, agent} = readConnectionFlags(flags);
	await withHeadlessEngine(target, {budget, readOnly, readOnlyReason, auditPath, agent, poll: []}, async engine => {
		// `--gpu-type L4` as the GPUs pane shows it: a display name is as good as the id.
		fields = {...fields, gpuTypeId: (await engine.resolve('gpu', fields.gpuTypeId)).id};
		const count = Number(fields.count || 1);
		const secureCloud = fields.cloud === 'secure' ? true : fields.cloud === 'community' ? false : undefined;
		const offer = await engine.offer(fields.gpuTypeId, count, secureCloud);
		if (!offer) {
			throw new UsageError(`--gpu-type "${sanitizeLine(fields.gpuTypeId)}" is not a GPU type of the service; podtop snapshot lists them (GPUs)`);
		}

		const {problems, plan} = planDeploy(fields, marketOf(offer));
		refuse(problems);
		const price = plan?.pricePerGpu === undefined ? undefined : plan.pricePerGpu * count;
		if (flags.dryRun || !plan) {
			process.stdout.write(
				`${inertJson({mutation: plan?.bidPerGpu === undefined ? 'podFindAndDeployOnDemand' : 'podRentInterruptable', input: {...plan?.input, ...(plan?.bidPerGpu === undefined ? {} : {bidPerGpu: plan.bidPerGpu})}, dollarsPerHour: price})}\n`,
			);
			if (!flags.json) {
				process.stderr.write(`podtop: dry run, nothing sent; this pod would cost ${formatDollarsPerHour(price)}\n`);
			}

			return;
		}

		const result = await engine.perform('pod.deploy', {gpuTypeId: fields.gpuTypeId}, {deploy: plan.input, bidPerGpu: plan.bidPerGpu});
		if (result.outcome === 'refused' && /no longer any instances/i.test(result.message)) {
			const stock = offer.lowestPrice;
			process.stderr.write(
				`podtop: the stock of ${sanitizeLine(offer.displayName ?? offer.id)} for ${count} GPU(s) in ${fields.cloud} cloud: ${sanitizeLine(stock?.stockStatus ?? 'unknown')}, ${stock?.maxUnreservedGpuCount ?? '?'} unreserved; try fewer GPUs, the other cloud, or another type\n`,
			);
		}

		reportWrite(
			result,
			flags.json,
			pod =>
				`deployed: pod ${nameWithId({id: pod.id, name: pod.name ?? ''})} on ${nameWithId({id: offer.id, name: offer.displayName ?? ''})} is ${sanitizeLine(pod.desiredStatus ?? '?')}, ${describeCost(pod)}`,
		);
	});
}
