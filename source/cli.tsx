#!/usr/bin/env node
import meow from 'meow';
import {runSim} from './commands/sim.js';

const help = `
	Usage
	  $ podtop <command> [options]

	Commands
	  sim        Run the local simulator of the service (job and GraphQL APIs)

	Options
	  --help     Show help (also: podtop <command> --help)
	  --version  Show the version

	The live dashboard is not built yet; see readme.md for what works today.

	Examples
	  $ podtop sim --port 8787
	  $ podtop sim --help
`;

const commands: Record<string, (argv: readonly string[]) => Promise<void>> = {
	sim: runSim,
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
