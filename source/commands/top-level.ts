import {UsageError} from '../lib/usage-error.js';
import {alertHelp, bellHelp, loadAlertRules} from './alert-flags.js';
import {commandFlags} from './command-flags.js';
import {commandList, commandsHelp} from './command-list.js';
import {connectionHelp, readConnectionFlags} from './connection-flags.js';
import {displayHelp} from './dashboard-flags.js';
import {historyHelp, readHistoryFlags} from './history-flags.js';
import type {DashboardOptions} from './dashboard.js';
import {parseCommandLine, withProfile} from './parse-command-line.js';

export const topLevelHelp = `
	Usage
	  $ podtop [options]              the live dashboard (needs a terminal)
	  $ podtop <command> [options]

	Commands
${commandsHelp()}
${connectionHelp}
${displayHelp}
${historyHelp}
${alertHelp}${bellHelp}

	With no API key configured, or with --demo, podtop runs on its built-in simulator and says
	DEMO everywhere. In the dashboard, ? lists the keys (k9s-style: Tab, /, :, Enter, Esc, q).

	Exit status of every command: 0 ok, 1 a job failed or the service refused, 2 usage or bad
	input (nothing sent), 3 authentication, 4 not found, 5 network or timeout, 6 read-only.

	Examples
	  $ podtop
	  $ RUNPOD_API_KEY=... podtop --endpoints abc123,def456
	  $ podtop snapshot --json
	  $ podtop history llama-70b --since 6h --step 5m
	  $ podtop <command> --help
`;

/** `podtop [options]`: the dashboard (or `--help`, `--version`, or an unknown command said as such). */
export async function runTopLevel(argv: readonly string[]): Promise<void> {
	const cli = parseCommandLine(topLevelHelp, argv, commandFlags[''], 'podtop');
	if (cli.input.length > 0) {
		throw new UsageError(`unknown command "${cli.input[0]}"; the commands are ${commandList.map(entry => entry.name).join(', ')} (see podtop --help)`);
	}

	const {runDashboard} = await import('./dashboard.js');
	const options = (flags: typeof cli.flags): DashboardOptions => ({
		...readConnectionFlags(flags),
		color: flags.color,
		ascii: flags.ascii,
		alerts: loadAlertRules(flags.alerts),
		bell: flags.bell,
		history: readHistoryFlags(flags),
	});
	await runDashboard({
		...options(cli.flags),
		// `:profile NAME`: this command line read again with `--profile NAME`, as if podtop had been started so.
		forProfile: name => options(parseCommandLine(topLevelHelp, withProfile(argv, commandFlags[''], 'podtop', name), commandFlags[''], 'podtop').flags),
	});
}
