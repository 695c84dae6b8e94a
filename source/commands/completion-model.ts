import {commandFlags, commandOperands} from './command-flags.js';
import {commandList, type CommandPath} from './command-list.js';
import type {CompletableFlags, ValueKind} from './value-kind.js';

/** A flag as it is typed: `--json`, `--no-agent` (a flag on by default is typed to turn it off), `--profile` with its value. */
export type FlagSpelling = {
	readonly spelling: string;
	/** It takes a value (`--profile prod`, `--profile=prod`). */
	readonly value: boolean;
	/** What completes the value; none for a number, a URL, free text. */
	readonly kind?: ValueKind;
	/** It may be given again (`--env`). */
	readonly repeatable: boolean;
};

/** One way to call podtop, with the flags and leading operands it takes. */
export type PathModel = {
	readonly path: CommandPath;
	readonly flags: readonly FlagSpelling[];
	readonly operands: readonly ValueKind[];
};

export type CommandModel = {
	readonly name: string;
	readonly summary: string;
	readonly subcommands: ReadonlyArray<{readonly name: string; readonly summary: string}>;
};

/** What every completion script is written from: the command list and every command's flags. */
export type CompletionModel = {
	readonly commands: readonly CommandModel[];
	readonly paths: readonly PathModel[];
};

const kebab = (name: string) => name.replaceAll(/[A-Z]/g, letter => `-${letter.toLowerCase()}`);

/** The spellings of a command's flags, as parse-command-line accepts them; `--help` everywhere, `--version` on podtop alone. */
export function flagSpellings(flags: CompletableFlags, path: CommandPath): FlagSpelling[] {
	const spellings: FlagSpelling[] = [];
	for (const [name, spec] of Object.entries(flags)) {
		if (spec.hidden) {
			continue;
		}

		const value = spec.type !== 'boolean';
		const negated = !value && spec.default === true && !spec.writtenOn;
		const repeatable = spec.isMultiple === true;
		for (const written of [name, ...(spec.aliases ?? [])]) {
			spellings.push({spelling: `--${negated ? 'no-' : ''}${kebab(written)}`, value, kind: spec.complete, repeatable});
		}

		if (spec.shortFlag) {
			spellings.push({spelling: `-${spec.shortFlag}`, value, kind: spec.complete, repeatable});
		}
	}

	spellings.push({spelling: '--help', value: false, repeatable: false});
	if (path === '') {
		spellings.push({spelling: '--version', value: false, repeatable: false});
	}

	return spellings;
}

export function completionModel(): CompletionModel {
	const commands = commandList.map(command =>
		'subcommands' in command
			? {
					name: command.name,
					summary: `${command.subcommands.map(sub => sub.name).join(', ')} (podtop ${command.name} --help)`,
					subcommands: command.subcommands.map(({name, summary}) => ({name, summary})),
				}
			: {name: command.name, summary: command.summary, subcommands: []},
	);
	const leaves = commandList.flatMap(command =>
		'subcommands' in command ? command.subcommands.map(sub => `${command.name} ${sub.name}` as CommandPath) : [command.name as CommandPath],
	);
	const paths = (['', ...leaves] as const).map(path => ({path, operands: commandOperands[path] ?? [], flags: flagSpellings(commandFlags[path], path)}));
	return {commands, paths};
}
