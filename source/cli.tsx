import {describeError} from './api/errors.js';
import {installCrashHandler} from './commands/crash.js';
import type {CommandName} from './commands/command-list.js';
import {exitCodeFor} from './commands/exit-code.js';
import {sanitizeLine} from './format/sanitize.js';

/** Each command loads only its own code: the dashboard never pays for the simulator, nor `sim` for Ink. */
const commands: Record<CommandName, (argv: readonly string[]) => Promise<void>> = {
	job: async argv => (await import('./commands/job.js')).runJob(argv),
	run: async argv => (await import('./commands/run.js')).runRun(argv),
	load: async argv => (await import('./commands/load.js')).runLoad(argv),
	cancel: async argv => (await import('./commands/job-writes.js')).runJobWrite('cancel', argv),
	retry: async argv => (await import('./commands/job-writes.js')).runJobWrite('retry', argv),
	purge: async argv => (await import('./commands/job-writes.js')).runPurge(argv),
	pod: async argv => (await import('./commands/pod.js')).runPod(argv),
	endpoint: async argv => (await import('./commands/endpoint.js')).runEndpoint(argv),
	agent: async argv => (await import('./commands/agent.js')).runAgent(argv),
	export: async argv => (await import('./commands/export.js')).runExport(argv),
	sim: async argv => (await import('./commands/sim.js')).runSim(argv),
	doctor: async argv => (await import('./commands/doctor.js')).runDoctor(argv),
	logs: async argv => (await import('./commands/logs.js')).runLogs(argv),
	snapshot: async argv => (await import('./commands/snapshot.js')).runSnapshot(argv),
	spend: async argv => (await import('./commands/spend.js')).runSpend(argv),
	workers: async argv => (await import('./commands/workers.js')).runWorkers(argv),
	watch: async argv => (await import('./commands/watch.js')).runWatch(argv),
	history: async argv => (await import('./commands/history.js')).runHistory(argv),
	events: async argv => (await import('./commands/events.js')).runEvents(argv),
	completion: async argv => (await import('./commands/completion.js')).runCompletion(argv),
};

async function main(): Promise<void> {
	const argv = process.argv.slice(2);
	const [name, ...rest] = argv;
	// The completion scripts' helper (hidden from --help): candidates for a Tab press, one per line.
	if (name === '__complete') {
		await (await import('./commands/complete-values.js')).runComplete(rest);
		return;
	}

	const command = name !== undefined && Object.hasOwn(commands, name) ? commands[name as CommandName] : undefined;
	if (command) {
		await command(rest);
		return;
	}

	await (await import('./commands/top-level.js')).runTopLevel(argv);
}

// A reader that went away (`| head`) ends podtop quietly.
process.stdout.on('error', (error: NodeJS.ErrnoException) => {
	if (error.code === 'EPIPE') {
		process.exit(0);
	}
});

installCrashHandler();
try {
	await main();
} catch (error) {
	process.stderr.write(`podtop: ${sanitizeLine(describeError(error))}\n`);
	process.exitCode = exitCodeFor(error);
}
