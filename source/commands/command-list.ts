type Entry = {readonly name: string; readonly usage: string; readonly summary: string};

/** A command, or one with subcommands (`pod stop`, `endpoint update`), each with its own line. */
export type CommandEntry = Entry | {readonly name: string; readonly subcommands: readonly Entry[]};

/**
 * Every command of the CLI, with its usage and one line of what it does: `podtop --help`, the
 * dispatch table in cli.tsx (keyed by these names, so neither can miss one), the subcommand
 * checks of `pod` and `endpoint`, each command's flags (command-flags.ts) and the shell completion
 * scripts all read it.
 */
/** The shells `podtop completion` writes a script for. */
export const shells = ['bash', 'zsh', 'fish'] as const;

const list = [
	{name: 'job', usage: 'job <endpoint> <id>', summary: "Follow one job's stream (dashboard in a terminal, tail -f in a pipe; --save FILE its image)"},
	{name: 'run', usage: 'run <endpoint> --input JSON|@file|-', summary: 'Submit a job, follow it to its end (--dry-run sends nothing; --save FILE its image)'},
	{
		name: 'load',
		usage: 'load <endpoint> --input JSON --rate 5/s',
		summary: 'Send jobs at a rate: delay and execution percentiles, cold starts, errors (live view or --json)',
	},
	{name: 'cancel', usage: 'cancel <endpoint> <id>', summary: 'Cancel a queued or running job'},
	{name: 'retry', usage: 'retry <endpoint> <id>', summary: 'Queue a FAILED or TIMED_OUT job again'},
	{name: 'purge', usage: 'purge <endpoint> --yes', summary: 'Remove every queued job of an endpoint (running ones stay)'},
	{
		name: 'pod',
		subcommands: [
			{name: 'stop', usage: 'pod stop <pod>', summary: 'Stop a pod: its container disk is wiped, its volume kept'},
			{name: 'resume', usage: 'pod resume <pod>', summary: 'Start a stopped pod again (a spot pod with --bid PRICE)'},
			{name: 'terminate', usage: 'pod terminate <pod> --yes', summary: 'Delete a pod for good, its volume too'},
			{name: 'deploy', usage: 'pod deploy --gpu-type ID --image IMAGE', summary: 'Rent a new pod, on demand or --spot --bid P (--dry-run sends nothing)'},
		],
	},
	{
		name: 'endpoint',
		subcommands: [
			{name: 'scale', usage: 'endpoint scale <id> --min N --max N', summary: "Set an endpoint's workers range"},
			{name: 'update', usage: 'endpoint update <id> [fields]', summary: 'Change the fields given, saying old → new (--dry-run sends nothing)'},
			{name: 'create', usage: 'endpoint create --name NAME --template ID --gpu-ids POOLS', summary: 'Create an endpoint (--dry-run sends nothing)'},
			{name: 'delete', usage: 'endpoint delete <id> --yes', summary: 'Delete an endpoint scaled to zero workers'},
		],
	},
	{
		name: 'logs',
		subcommands: [
			{name: 'pod', usage: 'logs pod <pod>', summary: "A pod's log: the last lines, or followed with -f (REST v2)"},
			{name: 'worker', usage: 'logs worker <endpoint> <worker>|--all', summary: "A worker's log, or all of an endpoint's merged (--all)"},
		],
	},
	{name: 'snapshot', usage: 'snapshot [--at TIME]', summary: 'Print endpoints, pods and GPU stock once (tables or --json; --at: as recorded then)'},
	{
		name: 'spend',
		usage: 'spend [--since 30d] [--by category|pod|endpoint|volume]',
		summary: "What the account spent, from the service's bills: by bucket and category, or per pod, endpoint, volume",
	},
	{name: 'workers', usage: 'workers <endpoint>', summary: "An endpoint's workers, its rollout and why its jobs wait (a diagnosis; --json)"},
	{name: 'history', usage: 'history [<thing>] [--info]', summary: 'The recorded series of an endpoint, pod or GPU type (--json, --csv); --info the store'},
	{name: 'events', usage: 'events [--since 24h]', summary: 'The recorded timeline: alerts, writes, jobs, status changes (--jsonl)'},
	{name: 'watch', usage: 'watch', summary: 'Print one JSON line per change (--jsonl) until interrupted'},
	{name: 'agent', usage: 'agent', summary: 'Poll the account once for every podtop on this host (Unix socket)'},
	{name: 'export', usage: 'export', summary: 'Serve Prometheus metrics (/metrics) of the account and of podtop itself'},
	{name: 'doctor', usage: 'doctor', summary: 'Check everything podtop depends on and say what to fix (--json)'},
	{name: 'sim', usage: 'sim', summary: 'Run the local simulator of the service (job and GraphQL APIs)'},
	{name: 'completion', usage: 'completion bash|zsh|fish', summary: 'Print the shell completion script for bash, zsh or fish'},
] as const satisfies readonly CommandEntry[];

export const commandList: readonly CommandEntry[] = list;

export type CommandName = (typeof list)[number]['name'];

type Parent = Extract<(typeof list)[number], {readonly subcommands: unknown}>['name'];

type Paths<Command> = Command extends {readonly name: infer Name extends string; readonly subcommands: ReadonlyArray<infer Sub>}
	? Sub extends {readonly name: infer SubName extends string}
		? `${Name} ${SubName}`
		: never
	: Command extends {readonly name: infer Name extends string}
		? Name
		: never;

/** Every way to call podtop: a command (`snapshot`) or a command and its subcommand (`pod stop`); the dashboard is `''`. */
export type CommandPath = Paths<(typeof list)[number]> | '';

/** The subcommands of `name` (none for a command without). */
export function subcommandsOf(name: string): readonly Entry[] {
	const command = commandList.find(entry => entry.name === name);
	return command && 'subcommands' in command ? command.subcommands : [];
}

/** Whether `podtop <name> <action>` is a subcommand there is. */
export const isSubcommand = (name: Parent, action: string | undefined): boolean => subcommandsOf(name).some(sub => sub.name === action);

/** What to say when `podtop <name> <action> …` is not a way to call it: that subcommand's usage, or the subcommands there are. */
export function subcommandUsage(name: Parent, action: string | undefined): string {
	const subs = subcommandsOf(name);
	const sub = subs.find(entry => entry.name === action);
	return sub
		? `usage: podtop ${sub.usage} (see podtop ${name} --help)`
		: `podtop ${name} takes ${subs.map(entry => entry.name).join('|')}${action === undefined ? '' : `, not "${action}"`} (see podtop ${name} --help)`;
}

const column = 38;

/** The Commands section of `podtop --help`: a line per command or subcommand, the summary beside it (below a long usage). */
export function commandsHelp(indent = '\t  '): string {
	const entries = commandList.flatMap(command => ('subcommands' in command ? command.subcommands : [command]));
	return entries
		.map(({usage, summary}) =>
			usage.length < column - 1 ? `${indent}${usage.padEnd(column)}${summary}` : `${indent}${usage}\n${indent}${' '.repeat(column)}${summary}`,
		)
		.join('\n');
}
