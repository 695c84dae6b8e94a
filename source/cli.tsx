import {describeError} from './api/errors.js';
import {installCrashHandler} from './commands/crash.js';
import {connectionFlags, connectionHelp, readConnectionFlags} from './commands/connection-flags.js';
import {alertFlags, alertHelp, bellHelp, loadAlertRules} from './commands/alert-flags.js';
import {displayFlags, displayHelp} from './commands/dashboard-flags.js';
import {exitCodeFor} from './commands/exit-code.js';
import {parseCommandLine} from './commands/parse-command-line.js';
import {sanitizeLine} from './format/sanitize.js';
import {UsageError} from './lib/usage-error.js';
import {tuneHeap} from './lib/heap-tuning.js';

const help = `
	Usage
	  $ podtop [options]              the live dashboard (needs a terminal)
	  $ podtop <command> [options]

	Commands
	  job <endpoint> <id>   Follow one job's stream (dashboard in a terminal, tail -f in a pipe)
	  run <endpoint> --input  Submit a job and follow it to its end (--dry-run sends nothing)
	  cancel <endpoint> <id>  Cancel a queued or running job
	  retry <endpoint> <id>   Queue a FAILED or TIMED_OUT job again
	  purge <endpoint> --yes  Remove every queued job of an endpoint (running ones stay)
	  pod stop|resume|terminate <id>     Stop, resume (--bid for spot) or terminate (--yes) a pod
	  endpoint scale|delete <id>         Set workers (--min, --max) or delete (--yes) an endpoint
	  snapshot              Print endpoints, pods and GPU stock once (tables or --json)
	  watch                 Print one JSON line per change (--jsonl) until interrupted
	  agent                 Poll the account once for every podtop on this host (Unix socket)
	  export                Serve Prometheus metrics (/metrics) of the account and of podtop itself
	  sim                   Run the local simulator of the service (job and GraphQL APIs)
${connectionHelp}
${displayHelp}
${alertHelp}${bellHelp}

	With no API key configured, or with --demo, podtop runs on its built-in simulator and says
	DEMO everywhere. In the dashboard, ? lists the keys (k9s-style: Tab, /, :, Enter, Esc, q).

	Exit status of every command: 0 ok, 1 a job failed or the service refused, 2 usage or bad
	input (nothing sent), 3 authentication, 4 not found, 5 network or timeout, 6 read-only.

	Examples
	  $ podtop
	  $ RUNPOD_API_KEY=... podtop --endpoints abc123,def456
	  $ podtop snapshot --json
	  $ podtop <command> --help
`;

/** Each command loads only its own code: the dashboard never pays for the simulator, nor `sim` for Ink. */
const commands: Record<string, (argv: readonly string[]) => Promise<void>> = {
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
};

async function main(): Promise<void> {
	const argv = process.argv.slice(2);
	const [name, ...rest] = argv;
	const command = name === undefined ? undefined : commands[name];
	if (command) {
		await command(rest);
		return;
	}

	const cli = parseCommandLine(help, argv, {...connectionFlags, ...displayFlags, ...alertFlags}, 'podtop');
	if (cli.input.length > 0) {
		throw new UsageError(`unknown command "${cli.input[0]}"; the commands are ${Object.keys(commands).join(', ')} (see podtop --help)`);
	}

	const {runDashboard} = await import('./commands/dashboard.js');
	const alerts = loadAlertRules(cli.flags.alerts);
	await runDashboard({...readConnectionFlags(cli.flags), color: cli.flags.color, ascii: cli.flags.ascii, alerts, bell: cli.flags.bell});
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
