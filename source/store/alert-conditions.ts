import type {AlertRule} from '../config/alert-rules.js';
import {formatLasting} from '../format/balance-text.js';
import {formatDuration} from '../format/duration.js';
import {formatSpan} from '../lib/time-spec.js';
import {endpointDiagnosis} from './endpoint-diagnosis.js';
import {spendFigures, utcDay, utcMonth} from './month-forecast.js';
import {stockOf} from './gpu-stock.js';
import {formatCostNow, meanGpuUtil, podCost, podCostTotals} from './pod-figures.js';
import {probeFigures} from './probe-figures.js';
import type {PodtopState} from './state.js';
import type {HealthSample} from './types.js';

/** One subject (endpoint, pod, GPU type, the account) for which a rule's condition holds now. */
export type Holding = {readonly subject: string; readonly subjectName: string; readonly message: string};

/** `*` as a wildcard, matched against the id or the name, case-insensitively. */
export function matches(pattern: string, id: string, name: string | null | undefined): boolean {
	if (pattern === '*') {
		return true;
	}

	const regex = new RegExp(`^${pattern.replaceAll(/[.+?^${}()|[\]\\]/g, String.raw`\$&`).replaceAll('*', '.*')}$`, 'i');
	return regex.test(id) || (name !== null && name !== undefined && regex.test(name));
}

/** The failed share of the jobs finished in the last `windowMs` of samples, or undefined when none finished or the samples span too little. */
export function failurePercent(history: readonly HealthSample[], windowMs: number, now: number): number | undefined {
	const latest = history.at(-1);
	const oldest = history.find(sample => now - sample.at <= windowMs);
	// Under a fifth of the window seen (or two samples), there is no rate to speak of.
	if (!latest || !oldest || latest === oldest || latest.at - oldest.at < Math.min(windowMs / 5, 60_000)) {
		return undefined;
	}

	const failed = Math.max(0, latest.failed - oldest.failed);
	const finished = failed + Math.max(0, latest.completed - oldest.completed);
	return finished === 0 ? undefined : (failed / finished) * 100;
}

const money = (value: number) => `$${value.toFixed(2)}/h`;
const seconds = (ms: number) => `${(ms / 1000).toFixed(1)} s`;

/** Where a rule's condition holds in this state, subject by subject (how long it has held is the caller's business). */
export function holdingNow(rule: AlertRule, state: PodtopState, now: number): Holding[] {
	const endpoints = (pattern: string) =>
		state.endpoints.order.flatMap(id => {
			const endpoint = state.endpoints.byId[id]!;
			return matches(pattern, id, endpoint.record.name) ? [{id, name: endpoint.record.name ?? id, endpoint}] : [];
		});

	switch (rule.kind) {
		case 'queue': {
			return endpoints(rule.endpoint).flatMap(({id, name, endpoint}) => {
				const queue = endpoint.health?.jobs.inQueue;
				return queue !== undefined && queue > rule.over ? [{subject: id, subjectName: name, message: `${queue} jobs in queue (over ${rule.over})`}] : [];
			});
		}

		case 'failure-rate': {
			return endpoints(rule.endpoint).flatMap(({id, name, endpoint}) => {
				const percent = failurePercent(endpoint.history, rule.windowMs, now);
				return percent !== undefined && percent > rule.overPercent
					? [
							{
								subject: id,
								subjectName: name,
								message: `${percent.toFixed(1)} % of jobs failed in ${formatDuration(rule.windowMs / 1000)} (over ${rule.overPercent} %)`,
							},
						]
					: [];
			});
		}

		case 'workers': {
			return endpoints(rule.endpoint).flatMap(({id, name, endpoint}) => {
				const workers = endpoint.health?.workers;
				const parts = [workers?.unhealthy ? `${workers.unhealthy} unhealthy` : '', workers?.throttled ? `${workers.throttled} throttled` : ''].filter(Boolean);
				return parts.length > 0
					? [{subject: id, subjectName: name, message: `${parts.join(', ')} worker${workers!.unhealthy + workers!.throttled > 1 ? 's' : ''}`}]
					: [];
			});
		}

		case 'crash-loop': {
			return endpoints(rule.endpoint).flatMap(({id, name}) => {
				const finding = endpointDiagnosis(state, id, now)?.findings.find(each => each.kind === 'crash-loop');
				return finding ? [{subject: id, subjectName: name, message: finding.text}] : [];
			});
		}

		case 'stuck-queue': {
			return endpoints(rule.endpoint).flatMap(({id, name}) => {
				const diagnosis = endpointDiagnosis(state, id, now);
				const unserved = diagnosis?.unservedMs;
				if (unserved === undefined || unserved < rule.forMs) {
					return [];
				}

				const why = diagnosis!.findings[0];
				return [
					{
						subject: id,
						subjectName: name,
						message: `${diagnosis!.queue ?? '?'} jobs wait, none served for ${formatDuration(unserved / 1000)} (over ${formatDuration(rule.forMs / 1000)})${why ? `: ${why.word}` : ''}`,
					},
				];
			});
		}

		case 'gpu-stock': {
			return state.gpus.order.flatMap(id => {
				const {record} = state.gpus.byId[id]!;
				const stock = stockOf(record);
				const low = stock === 'None' || (rule.at === 'Low' && stock === 'Low');
				return low && matches(rule.gpu, id, record.displayName)
					? [{subject: id, subjectName: record.displayName ?? id, message: stock === 'None' ? 'out of stock' : 'stock Low'}]
					: [];
			});
		}

		case 'idle-pod': {
			// Each look reads the pods as last polled; the evaluator holds a pod from look to look, and any look where it is busy or not running starts it over.
			return state.pods.order.flatMap(id => {
				const {record} = state.pods.byId[id]!;
				const util = meanGpuUtil(record);
				const cost = podCost(record);
				return record.desiredStatus === 'RUNNING' &&
					util !== undefined &&
					util < rule.underPercent &&
					cost.now !== undefined &&
					cost.now > rule.costingOver &&
					matches(rule.pod, id, record.name)
					? [
							{
								subject: id,
								subjectName: record.name ?? id,
								message: `GPU ${util} % (under ${rule.underPercent} %) at ${formatCostNow(cost)}${costTodayText(cost.now, record.runtime?.uptimeInSeconds ?? undefined, state.pods.updatedAt ?? now)}`,
							},
						]
					: [];
			});
		}

		case 'balance': {
			const read = state.balance;
			if (read === undefined || read === 'not-published' || !(read.spendPerHour > 0) || (read.balance / read.spendPerHour) * 3_600_000 >= rule.underMs) {
				return [];
			}

			const lasting = formatLasting(read.balance, read.spendPerHour);
			return [
				{
					subject: 'account',
					subjectName: 'balance',
					message: `$${read.balance.toFixed(2)} lasts ${lasting} at ${money(read.spendPerHour)} (under ${formatSpan(rule.underMs)}): at $0 the service stops every running pod`,
				},
			];
		}

		case 'spend-limit': {
			const read = state.balance;
			return read !== undefined && read !== 'not-published' && read.spendPerHour >= (rule.limit * rule.nearPercent) / 100
				? [
						{
							subject: 'account',
							subjectName: 'spend limit',
							message: `spending ${money(read.spendPerHour)}, ${Math.round((read.spendPerHour / rule.limit) * 100)} % of the ${money(rule.limit)} limit`,
						},
					]
				: [];
		}

		case 'budget': {
			return budgetHolding(rule.monthly, state, now);
		}

		case 'latency': {
			return endpoints(rule.endpoint).flatMap(({id, name}) => {
				const {p95Ms: value, finished} = probeFigures(state.probes.byEndpoint[id], now - rule.windowMs, now, {rank: rule.percentile, measure: rule.measure});
				const what = rule.measure === 'total' ? 'probe time' : `probe ${rule.measure}`;
				return value !== undefined && value > rule.overMs
					? [
							{
								subject: id,
								subjectName: name,
								message: `P${rule.percentile} ${what} ${seconds(value)} over ${finished} probe${finished === 1 ? '' : 's'} in ${formatDuration(rule.windowMs / 1000)} (over ${seconds(rule.overMs)})`,
							},
						]
					: [];
			});
		}

		case 'spend': {
			// What the pods cost now: the running ones' price and the stopped ones' volumes, as everywhere else.
			const {running, stopped} = podCostTotals(state.pods.order.map(id => state.pods.byId[id]!.record));
			const spend = running.perHr + stopped.perHr;
			const volumes = stopped.perHr > 0 ? `, ${formatCostNow({now: stopped.perHr, estimated: stopped.estimated})} of it stopped pods' volumes` : '';
			return state.pods.updatedAt !== undefined && spend > rule.over
				? [{subject: 'account', subjectName: 'pods', message: `spending ${money(spend)} (over ${money(rule.over)})${volumes}`}]
				: [];
		}
	}
}

/**
What a running pod has cost today (UTC, as the service bills): its $/h over the part of its uptime that fell today,
`, ~$3.20 so far today`, as of the poll that read the uptime (so it moves poll by poll, as a queue's length does); nothing
when its uptime is not known.
*/
function costTodayText(perHour: number, uptimeSeconds: number | undefined, polledAt: number): string {
	if (uptimeSeconds === undefined || !Number.isFinite(uptimeSeconds) || uptimeSeconds < 0) {
		return '';
	}

	const ranTodayMs = Math.min(uptimeSeconds * 1000, polledAt - utcDay(polledAt));
	return `, ~$${((perHour * ranTodayMs) / 3_600_000).toFixed(2)} so far today`;
}

/**
The spend per hour a forecast goes on at: the account's (GraphQL's `myself`) while it is published, else what
the pods cost now (running pods' price, stopped pods' volumes); undefined before either is read.
*/
function perHourNow(state: PodtopState): {readonly perHour: number; readonly of: string} | undefined {
	const read = state.balance;
	if (read !== undefined && read !== 'not-published') {
		return {perHour: read.spendPerHour, of: ''};
	}

	if (state.pods.updatedAt === undefined) {
		return undefined;
	}

	const {running, stopped} = podCostTotals(state.pods.order.map(id => state.pods.byId[id]!.record));
	return {perHour: running.perHr + stopped.perHr, of: " (the pods')"};
}

/**
The month's forecast (the Spend pane's: month to date plus the current $/h to the month's end) over the budget, as of
the read of the bills (so the text moves with each read and each $/h read, not every second); bills read in another
month than now's say nothing of this one.
*/
function budgetHolding(monthly: number, state: PodtopState, now: number): Holding[] {
	const billed = state.monthSpend;
	const rate = perHourNow(state);
	if (billed === undefined || rate === undefined || utcMonth(billed.readAt) !== utcMonth(now)) {
		return [];
	}

	const {monthToDate, forecast = monthToDate} = spendFigures(billed.buckets, billed.readAt, rate.perHour);
	if (forecast <= monthly) {
		return [];
	}

	const left = Math.max(0, utcMonth(billed.readAt, 1) - billed.readAt);
	return [
		{
			subject: 'account',
			subjectName: 'monthly budget',
			message: `forecast $${forecast.toFixed(2)} this month, over the $${monthly.toFixed(2)} budget: $${monthToDate.toFixed(2)} billed so far and ${money(rate.perHour)}${rate.of} for the ${formatLasting(left / 3_600_000, 1)} to the month's end`,
		},
	];
}
