import {describeError} from './api/errors.js';
import {installCrashHandler} from './commands/crash.js';
import {connectionFlags, connectionHelp, readConnectionFlags} from './commands/connection-flags.js';
import {alertFlags, alertHelp, bellHelp, loadAlertRules} from './commands/alert-flags.js';
import {displayFlags, displayHelp} from './commands/dashboard-flags.js';
import {commandList, commandsHelp, type CommandName} from './commands/command-list.js';
import {exitCodeFor} from './commands/exit-code.js';
import {historyFlags, historyHelp, readHistoryFlags} from './commands/history-flags.js';
import {parseCommandLine} from './commands/parse-command-line.js';
import {sanitizeLine} from './format/sanitize.js';
import {UsageError} from './lib/usage-error.js';
import {tuneHeap} from './lib/heap-tuning.js';

const help = `
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

/** Each command loads only its own code: the dashboard never pays for the simulator, nor `sim` for Ink. */
const commands: Record<CommandName, (argv: readonly string[]) => Promise<void>> = {
	job: async argv => (await import('./commands/job.js')).runJob(argv),
	run: async argv => (await import('./commands/run.js')).runRun(argv),
	cancel: async argv => (await import('./commands/job-writes.js')).runJobWrite('cancel', argv),
	retry: async argv => (await import('./commands/job-writes.js')).runJobWrite('retry', argv),
	purge: async argv => (await import('./commands/job-writes.js')).runPurge(argv),
	pod: async argv => (await import('./commands/pod.js')).runPod(argv),
	endpoint: async argv => (await import('./commands/endpoint.js')).runEndpoint(argv),
	agent: async argv => (await import('./commands/agent.js')).runAgent(argv),
	export: async argv => (await import('./commands/export.js')).runExport(argv),
	sim: async argv => (await import('./commands/sim.js')).runSim(argv),
	snapshot: async argv => (await import('./commands/snapshot.js')).runSnapshot(argv),
	watch: async argv => (await import('./commands/watch.js')).runWatch(argv),
	history: async argv => (await import('./commands/history.js')).runHistory(argv),
	events: async argv => (await import('./commands/events.js')).runEvents(argv),
};

async function main(): Promise<void> {
	const argv = process.argv.slice(2);
	const [name, ...rest] = argv;
	const command = name !== undefined && Object.hasOwn(commands, name) ? commands[name as CommandName] : undefined;
	if (command) {
		await command(rest);
		return;
	}

	const cli = parseCommandLine(help, argv, {...connectionFlags, ...displayFlags, ...historyFlags, ...alertFlags}, 'podtop');
	if (cli.input.length > 0) {
		throw new UsageError(`unknown command "${cli.input[0]}"; the commands are ${commandList.map(entry => entry.name).join(', ')} (see podtop --help)`);
	}

	const {runDashboard} = await import('./commands/dashboard.js');
	const alerts = loadAlertRules(cli.flags.alerts);
	const history = readHistoryFlags(cli.flags);
	await runDashboard({...readConnectionFlags(cli.flags), color: cli.flags.color, ascii: cli.flags.ascii, alerts, bell: cli.flags.bell, history});
}

// A reader that went away (`| head`) ends podtop quietly.
process.stdout.on('error', (error: NodeJS.ErrnoException) => {
	if (error.code === 'EPIPE') {
		process.exit(0);
	}
});

tuneHeap();
installCrashHandler();
try {
	await main();
} catch (error) {
	process.stderr.write(`podtop: ${sanitizeLine(describeError(error))}\n`);
	process.exitCode = exitCodeFor(error);
}
