import type {GpuTypeRecord} from '../model/gpu-type.js';
import type {PodDeployInput} from '../model/pod.js';
import {formatDollarsPerHour} from '../format/numbers.js';
import {clouds, planDeploy, type DeployFields} from '../requests/deploy-request.js';
import type {FormSpec, FormValues} from './form.js';

/** What the deploy form sends: the mutation's input, the spot bid if any, and a line for the review. */
export type DeployOrder = {readonly deploy: PodDeployInput; readonly bidPerGpu?: number; readonly summary: string};

const isSpot = (values: FormValues) => values.mode === 'spot';

/** The on-demand price per GPU in the chosen cloud ("all" takes the lower). */
function pricePerGpu(gpu: GpuTypeRecord, cloud: string): number | undefined {
	const secure = gpu.securePrice ?? undefined;
	const community = gpu.communityPrice ?? undefined;
	if (cloud === 'secure') {
		return secure;
	}

	if (cloud === 'community') {
		return community;
	}

	return community === undefined ? secure : secure === undefined ? community : Math.min(secure, community);
}

/**
The deploy wizard of a GPU type, as one form: cloud, count, on demand or spot (with the bid), image,
name, disks, mount path, ports, env, and the least vCPU and memory. Checked as typed by the same
rules as `podtop pod deploy`; the review line says the $/h.
*/
export function deployForm(gpu: GpuTypeRecord): FormSpec<DeployOrder> {
	const minimumBid = gpu.lowestPrice?.minimumBidPrice ?? undefined;
	const name = gpu.displayName ?? gpu.id;
	return {
		id: `deploy:${gpu.id}`,
		fields: [
			{name: 'cloud', label: 'cloud', kind: 'choice', choices: clouds, hint: 'secure: certified data centers; community: cheaper hosts'},
			{
				name: 'count',
				label: 'GPUs',
				kind: 'text',
				hint: `0 (a CPU pod) to ${gpu.maxGpuCount ?? 8}; rentable now: ${(gpu.lowestPrice?.availableGpuCounts ?? []).join(', ') || 'none'}`,
			},
			{
				name: 'mode',
				label: 'pricing',
				kind: 'choice',
				choices: ['on-demand', 'spot'],
				hint: 'spot is cheaper and can be interrupted when the price passes your bid',
			},
			{
				name: 'bid',
				label: 'bid per GPU ($/h)',
				kind: 'text',
				hint: minimumBid === undefined ? 'at least the minimum bid' : `the minimum for 1 GPU now is $${minimumBid}`,
				shown: isSpot,
			},
			{name: 'image', label: 'image', kind: 'text', hint: 'the container image, e.g. runpod/pytorch:2.4'},
			{name: 'name', label: 'name', kind: 'text', hint: 'optional'},
			{name: 'containerDisk', label: 'container disk (GB)', kind: 'text', hint: 'wiped on stop'},
			{name: 'volume', label: 'volume (GB)', kind: 'text', hint: 'kept on stop; 0 for none'},
			{name: 'mountPath', label: 'volume mount', kind: 'text'},
			{name: 'ports', label: 'ports', kind: 'text', hint: 'e.g. 8888/http,22/tcp'},
			{name: 'env', label: 'env', kind: 'text', hint: 'KEY=value, comma separated'},
			{name: 'minVcpu', label: 'min vCPU', kind: 'text', hint: 'optional'},
			{name: 'minMemory', label: 'min memory (GB)', kind: 'text', hint: 'optional'},
		],
		initial: {
			cloud: 'all',
			count: '1',
			mode: 'on-demand',
			bid: minimumBid === undefined ? '' : String(minimumBid),
			image: '',
			name: '',
			containerDisk: '20',
			volume: '0',
			mountPath: '/workspace',
			ports: '',
			env: '',
			minVcpu: '',
			minMemory: '',
		},
		check(values) {
			const fields: DeployFields = {
				gpuTypeId: gpu.id,
				count: values.count ?? '',
				cloud: values.cloud ?? 'all',
				spot: isSpot(values),
				bid: values.bid ?? '',
				image: values.image ?? '',
				name: values.name ?? '',
				containerDisk: values.containerDisk ?? '',
				volume: values.volume ?? '',
				mountPath: values.mountPath ?? '',
				ports: values.ports ?? '',
				env: (values.env ?? '').split(','),
				minVcpu: values.minVcpu ?? '',
				minMemory: values.minMemory ?? '',
			};
			const {problems, plan} = planDeploy(fields, {minimumBid, maxGpuCount: gpu.maxGpuCount ?? undefined, pricePerGpu: pricePerGpu(gpu, fields.cloud)});
			const count = plan?.input.gpuCount ?? Number(fields.count);
			const perHour = plan?.pricePerGpu === undefined ? undefined : plan.pricePerGpu * count;
			const summary = `${count}× ${name} · ${fields.cloud} cloud · ${fields.spot ? 'spot' : 'on demand'} · ${formatDollarsPerHour(perHour)}`;
			return plan
				? {problems, summary, result: {deploy: plan.input, ...(plan.bidPerGpu === undefined ? {} : {bidPerGpu: plan.bidPerGpu}), summary}}
				: {problems, summary};
		},
	};
}
