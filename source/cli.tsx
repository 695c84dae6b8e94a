#!/usr/bin/env node
import meow from 'meow';
import {runSim} from './commands/sim.js';
import {runSnapshot} from './commands/snapshot.js';
import {runWatch} from './commands/watch.js';

const help = `
	Usage
	  $ podtop <command> [options]

	Commands
	  snapshot   Print endpoints, pods and GPU stock once (tables or --json)
	  watch      Print one JSON line per change (--jsonl) until interrupted
	  sim        Run the local simulator of the service (job and GraphQL APIs)

	Options
	  --help     Show help (also: podtop <command> --help)
	  --version  Show the version

	The live dashboard is not built yet; see readme.md for what works today.

	With no API key configured (RUNPOD_API_KEY or ~/.runpod/config.toml), or with --demo,
	podtop runs on its built-in simulator and says DEMO everywhere.

	Examples
	  $ podtop snapshot
	  $ podtop watch --jsonl --endpoints abc123
	  $ podtop sim --port 8787
	  $ podtop <command> --help
`;

const commands: Record<string, (argv: readonly string[]) => Promise<void>> = {
	sim: runSim,
	snapshot: runSnapshot,
	watch: runWatch,
};

async function main(): Promise<void> {
	const [name, ...rest] = process.argv.slice(2);
	const command = name === undefined ? undefined : commands[name];
	if (command) {
		await command(rest);
		return;
	}

	const cli = meow(help, {importMeta: import.meta, flags: {}});
	if (name !== undefined && !name.startsWith('-')) {
		process.stderr.write(`podtop: unknown command "${name}"\n`);
		process.exitCode = 2;
		return;
	}

	cli.showHelp(0);
}

try {
	await main();
} catch (error) {
	process.stderr.write(`podtop: ${error instanceof Error ? error.message : String(error)}\n`);
	process.exitCode = 1;
}
