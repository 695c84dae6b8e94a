import type {ProbeAnswer} from '../api/probe.js';
import {readRateLimitHeaders} from '../api/rate-limit-headers.js';
import {checkResult, type CheckResult} from './check.js';

type Series = {readonly answers: readonly ProbeAnswer[]; readonly error?: unknown};

const count = (value: number) => (value >= 10_000 ? `${Math.round(value / 1000)}k` : value.toLocaleString('en-US'));

/** The budget the last answer states: `minute 57/60 · hour 2,997/3,000 · day 49,997/50,000`, left of each window's quota. */
function budgetLine(series: Series): string | undefined {
	const last = series.answers.at(-1);
	const windows = last ? readRateLimitHeaders(last.headers).windows : undefined;
	return windows?.windows.map(window => `${window.name} ${count(window.remaining)}/${count(window.limit)}`).join(' · ');
}

/** REST v2's own check: `result` (reachable, the key accepted, as every API's) with the budget the service states for the key's owner. */
export function restCheck(host: string, series: Series, result: CheckResult): CheckResult {
	if (!series.error && series.answers.length > 0 && series.answers.every(answer => answer.status === 404)) {
		return checkResult({
			id: 'rest-v2',
			title: 'REST API v2',
			status: 'warn',
			found: `${host}: no /v2 here (HTTP 404): podtop manages over GraphQL while it answers`,
			fix: 'point --rest-url (or RUNPOD_API_BASE_URL) at the origin whose paths carry /v2, or give --management-api graphql',
		});
	}

	const budget = budgetLine(series);
	if (result.status !== 'ok') {
		return result;
	}

	return budget === undefined
		? checkResult({...result, status: 'warn', found: `${result.found}; no RateLimit headers: podtop spaces its requests conservatively`})
		: checkResult({...result, found: `${result.found}; left: ${budget}`});
}

/** The endpoints v2 listed (what the job API check reads /health of), when it did. */
export function restEndpoints(series: Series): Array<{id?: unknown; name?: unknown}> | undefined {
	const endpoints = (series.answers.at(-1)?.body as {endpoints?: unknown} | undefined)?.endpoints;
	return Array.isArray(endpoints) ? (endpoints as Array<{id?: unknown; name?: unknown}>) : undefined;
}
