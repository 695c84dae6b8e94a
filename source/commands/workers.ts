import {inertJson} from '../format/sanitize.js';
import {workersText} from '../headless/workers-text.js';
import {UsageError} from '../lib/usage-error.js';
import {readConnectionFlags, readingConnectionHelp} from './connection-flags.js';
import {withHeadlessEngine} from './headless-engine.js';
import {parseCommandLine} from './parse-command-line.js';
import {commandFlags} from './command-flags.js';

export const workersHelp = `
	Usage
	  $ podtop workers <endpoint> [--json]

	Prints an endpoint's active workers (status, stale or version, GPU type × count, data center,
	uptime, started), its rollout (version, share of workers on the latest release, what the last
	release changed) and the diagnosis of why its jobs wait (crash loop, at its limit, no capacity,
	cold start, stale release) with the figures read, then exits. <endpoint> is its id or its name.

	One look: restarts (a worker seen again with its uptime reset) and how long jobs went unserved
	need reads over time, which the dashboard and \`podtop watch\` make. Workers are published by
	REST v2 only: over --management-api graphql there are none (exit 1, saying so).

	Options
	  --json            Print JSON: {endpoint, workers, rollout, health, diagnosis}
${readingConnectionHelp}

	Exit status: 0 ok, 1 refused (no workers over GraphQL), 2 usage, 3 authentication failed,
	4 no such endpoint, 5 network or timeout.

	Examples
	  $ podtop workers llava-next-34b
	  $ podtop workers abc123 --json | jq '.diagnosis.findings[].text'
`;

export async function runWorkers(argv: readonly string[]): Promise<void> {
	const cli = parseCommandLine(workersHelp, argv, commandFlags.workers, 'podtop workers');
	const [text, ...rest] = cli.input;
	if (!text || rest.length > 0) {
		throw new UsageError('usage: podtop workers <endpoint> [--json]');
	}

	const {target, budget, agent} = readConnectionFlags(cli.flags);
	await withHeadlessEngine(target, {budget, agent, allVisible: true, poll: []}, async engine => {
		const endpoint = await engine.resolve('endpoint', text);
		const report = await engine.readWorkers(endpoint.id);
		process.stdout.write(cli.flags.json ? `${inertJson(report, 2)}\n` : workersText(report, Date.now()));
	});
}
