import {formatDollarsPerHour} from '../format/numbers.js';
import {numberValue, type Field, type FormSpec} from './form.js';

/** What a resume sends: the GPU count, and for a spot pod its bid per GPU. */
export type ResumeOrder = {readonly gpuCount: number; readonly bidPerGpu?: number; readonly summary: string};

/**
The resume form of a stopped pod: its GPU count (as it was, or another), and for a spot pod the bid per
GPU (at least the current minimum, when known), with the $/hr it implies.
*/
export function resumeForm(options: {
	readonly spot: boolean;
	readonly minimumBid: number | undefined;
	readonly gpuCount: number;
	/** An on-demand pod's price per GPU-hour, when known. */
	readonly pricePerGpu: number | undefined;
}): FormSpec<ResumeOrder> {
	const {spot, minimumBid, pricePerGpu} = options;
	const gpus: Field = {name: 'gpuCount', label: 'GPUs', kind: 'text', hint: '0 to 8; more than before needs that many free on its host'};
	const bid: Field = {
		name: 'bid',
		label: 'bid per GPU ($/h)',
		kind: 'text',
		hint: minimumBid === undefined ? 'at least the current minimum bid' : `the minimum now is $${minimumBid}`,
	};
	return {
		id: spot ? 'bid-resume' : 'resume',
		fields: spot ? [bid, gpus] : [gpus],
		initial: {bid: minimumBid === undefined ? '' : String(minimumBid), gpuCount: String(options.gpuCount)},
		check(values) {
			const problems: Record<string, string> = {};
			const count = numberValue(values.gpuCount ?? '');
			if (count.value === undefined || count.problem || !Number.isInteger(count.value) || count.value < 0 || count.value > 8) {
				problems.gpuCount = 'must be a whole number from 0 to 8';
			}

			const offer = numberValue(values.bid ?? '');
			if (spot) {
				if (offer.value === undefined || offer.problem) {
					problems.bid = offer.problem ?? 'is required';
				} else if (offer.value <= 0 || (minimumBid !== undefined && offer.value < minimumBid)) {
					problems.bid = minimumBid === undefined ? 'must be more than 0' : `must be at least the minimum bid, $${minimumBid}`;
				}
			}

			const perGpu = spot ? offer.value : pricePerGpu;
			if (Object.keys(problems).length > 0 || count.value === undefined) {
				return {problems, summary: 'the $/h shows once the fields are right'};
			}

			const summary = `${count.value} GPU(s)${spot ? ` at a bid of $${offer.value}/GPU` : ''} = ${formatDollarsPerHour(perGpu === undefined ? undefined : perGpu * count.value)}`;
			return {problems, summary, result: {gpuCount: count.value, ...(spot ? {bidPerGpu: offer.value} : {}), summary}};
		},
	};
}
