import {formatDollarsPerHour} from '../format/numbers.js';
import {numberValue, type FormSpec} from './form.js';

/** What a spot pod's resume sends: a bid per GPU and the GPU count. */
export type BidResume = {readonly bidPerGpu: number; readonly gpuCount: number; readonly summary: string};

/**
The bid form of a spot pod's resume: the bid per GPU (at least the current minimum, when known) with
the $/hr it implies, and the GPU count.
*/
export function bidForm(options: {readonly minimumBid: number | undefined; readonly gpuCount: number}): FormSpec<BidResume> {
	const {minimumBid} = options;
	return {
		id: 'bid-resume',
		fields: [
			{
				name: 'bid',
				label: 'bid per GPU ($/h)',
				kind: 'text',
				hint: minimumBid === undefined ? 'at least the current minimum bid' : `the minimum now is $${minimumBid}`,
			},
			{name: 'gpuCount', label: 'GPUs', kind: 'text', hint: '0 to 8'},
		],
		initial: {bid: minimumBid === undefined ? '' : String(minimumBid), gpuCount: String(options.gpuCount)},
		check(values) {
			const problems: Record<string, string> = {};
			const bid = numberValue(values.bid ?? '');
			const gpus = numberValue(values.gpuCount ?? '');
			if (bid.value === undefined || bid.problem) {
				problems.bid = bid.problem ?? 'is required';
			} else if (bid.value <= 0 || (minimumBid !== undefined && bid.value < minimumBid)) {
				problems.bid = minimumBid === undefined ? 'must be more than 0' : `must be at least the minimum bid, $${minimumBid}`;
			}

			if (gpus.value === undefined || gpus.problem || !Number.isInteger(gpus.value) || gpus.value < 0 || gpus.value > 8) {
				problems.gpuCount = 'must be a whole number from 0 to 8';
			}

			if (Object.keys(problems).length > 0 || bid.value === undefined || gpus.value === undefined) {
				return {problems, summary: 'the $/h shows once the bid and count are right'};
			}

			const summary = `bid $${bid.value}/GPU × ${gpus.value} = ${formatDollarsPerHour(bid.value * gpus.value)}`;
			return {problems, summary, result: {bidPerGpu: bid.value, gpuCount: gpus.value, summary}};
		},
	};
}
