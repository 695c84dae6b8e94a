import {inertJson} from '../format/sanitize.js';
import {snapshotText} from '../headless/snapshot-text.js';
import {connectionFlags, connectionHelp, readConnectionFlags} from './connection-flags.js';
import {withHeadlessEngine} from './headless-engine.js';
import {parseCommandLine} from './parse-command-line.js';

export const snapshotHelp = `
	Usage
	  $ podtop snapshot [--json] [options]

	Prints one consistent picture (endpoints with health, pods with runtime, GPU types with
	stock) and exits. No TTY needed; it keeps within the same rate budgets as the dashboard.

	Options
	  --json            Print JSON instead of tables
${connectionHelp}

	Exit status: 0 ok, 2 usage, 3 authentication failed, 4 not found, 5 network or timeout, 1 other.

	Examples
	  $ podtop snapshot --json | jq '.pods[] | select(.desiredStatus == "RUNNING") | .name'
	  $ RUNPOD_API_KEY=... podtop snapshot --endpoints abc123,def456
`;

export async function runSnapshot(argv: readonly string[]): Promise<void> {
	const cli = parseCommandLine(snapshotHelp, argv, {...connectionFlags, json: {type: 'boolean', default: false}}, 'podtop snapshot');
	const {target, endpointFilter, budget, agent} = readConnectionFlags(cli.flags);
	await withHeadlessEngine(target, {budget, endpointFilter, allVisible: true, poll: [], agent}, async engine => {
		const snapshot = await engine.snapshot();
		process.stdout.write(cli.flags.json ? `${inertJson(snapshot, 2)}\n` : snapshotText(snapshot));
	});
}
