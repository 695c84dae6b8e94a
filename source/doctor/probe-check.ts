import {readFileSync} from 'node:fs';
import {parseAlertRules} from '../config/alert-rules.js';
import {probeTargets} from '../engine/probe-targets.js';
import {formatDuration} from '../format/duration.js';
import {probeCosts} from '../requests/probe-cost.js';
import {checkResult, type CheckResult} from './check.js';

type Endpoint = {readonly id: string; readonly name?: string | null};

const jobs = (count: number) => `${count.toLocaleString('en-US')} job${count === 1 ? '' : 's'}`;

/**
What the configured probes cost a day: per rule, the jobs it sends each endpoint it matches (and
which, when the account's endpoints were read), the dollars for public image models, and the total.
A file that cannot be read or used is the alert rules check's to say.
*/
export function probeCostCheck(path: string, endpoints: readonly Endpoint[] | undefined): CheckResult {
	let probes;
	try {
		probes = parseAlertRules(readFileSync(path, 'utf8'), path).probes ?? [];
	} catch {
		return checkResult({id: 'probes', title: 'probes', status: 'skip', found: 'no usable alert rules file'});
	}

	if (probes.length === 0) {
		return checkResult({id: 'probes', title: 'probes', status: 'skip', found: 'none configured: probes are off ([[probe]] in the alert rules sends them)'});
	}

	const lines = probeCosts(probes, endpoints && (rule => probeTargets(rule, endpoints)));
	const total = endpoints ? lines.reduce((sum, line) => sum + line.jobsPerDayEach * line.endpoints!.length, 0) : undefined;
	const dollars = lines.reduce((sum, line) => sum + (line.dollarsPerDay ?? 0), 0);
	const parts = lines.map((line, index) => {
		const every = formatDuration(probes[index]!.everyMs / 1000);
		const where = line.endpoints
			? line.endpoints.length === 0
				? 'per endpoint, matching none now'
				: `× ${line.endpoints.length} endpoint${line.endpoints.length === 1 ? '' : 's'} (${line.endpoints.join(', ')})`
			: 'per endpoint it matches';
		const money = line.dollarsPerDay === undefined ? '' : `, $${line.dollarsPerDay.toFixed(2)} a day`;
		return `${line.rule}: every ${every}, ${jobs(line.jobsPerDayEach)} a day ${where}${money}`;
	});
	const summary = total === undefined ? '' : `${jobs(total)} a day in all${dollars > 0 ? ` ($${dollars.toFixed(2)} of them images)` : ''}; `;
	return checkResult({
		id: 'probes',
		title: 'probes',
		status: 'ok',
		found: `${summary}${parts.join('; ')}. Each probe is a job, billed as one (run by the agent, or a dashboard or watch polling alone)`,
		figures: {rules: probes.length, jobsPerDay: total, dollarsPerDay: dollars > 0 ? Number(dollars.toFixed(4)) : undefined},
	});
}
