import type {CompletionModel} from './completion-model.js';
import type {ValueKind} from './value-kind.js';

/** A word in single quotes for fish (which reads `\\` and `\'` inside them). */
export const fishQuote = (text: string) => `'${text.replaceAll('\\', '\\\\').replaceAll("'", String.raw`\'`)}'`;

/** The candidates of a value: its choices, paths, groups, or a lookup through podtop __complete. */
function candidates(kind: ValueKind): string {
	if (typeof kind !== 'string') {
		return kind.choices.join(' ');
	}

	switch (kind) {
		case 'file': {
			return '(__fish_complete_path)';
		}

		case 'directory': {
			return '(__fish_complete_directories)';
		}

		case '@file': {
			return '(__podtop_at_file)';
		}

		case 'group': {
			return '(__fish_complete_groups)';
		}

		default: {
			return `(__podtop_lookup ${kind})`;
		}
	}
}

/** How a flag's value completes: none (a boolean), files, words, or no completion at all (`-x`). */
function valueOptions(value: boolean, kind: ValueKind | undefined): string {
	if (!value) {
		return '';
	}

	if (kind === 'file') {
		return ' -r -F';
	}

	return kind === undefined ? ' -x' : ` -x -a ${fishQuote(candidates(kind))}`;
}

const condition = (test: string, ...words: readonly string[]) => `-n ${fishQuote([test, ...words.map(word => fishQuote(word))].join(' '))}`;

/**
`podtop completion fish`: a `complete` rule per flag (for every path that has it), command and
operand, from the same definitions the commands parse with; the commands described by their
summaries; a value only this host knows comes from `podtop __complete` (never the service).
*/
export function fishScript(model: CompletionModel): string {
	const parents = model.commands.filter(command => command.subcommands.length > 0).map(command => command.name);
	const commands = model.commands.map(
		({name, summary}) => `complete -c podtop ${condition('__podtop_at', '-')} -a ${fishQuote(name)} -d ${fishQuote(summary)}`,
	);
	const subcommands = model.commands.flatMap(({name, subcommands}) =>
		subcommands.map(sub => `complete -c podtop ${condition('__podtop_at', name)} -a ${fishQuote(sub.name)} -d ${fishQuote(sub.summary)}`),
	);

	// One rule per flag and way of completing it, for all the paths that have it ('' also before a command).
	const rules = new Map<string, string[]>();
	for (const {path, flags} of model.paths) {
		for (const {spelling, value, kind} of flags) {
			const option = spelling.startsWith('--') ? `-l ${spelling.slice(2)}` : `-s ${spelling.slice(1)}`;
			const rule = `${option}${valueOptions(value, kind)}`;
			rules.set(rule, [...(rules.get(rule) ?? []), ...(path === '' ? ['', '-'] : [path])]);
		}
	}

	const flags = [...rules].map(([rule, paths]) => `complete -c podtop ${condition('__podtop_at', ...paths)} ${rule}`);
	const operands = model.paths.flatMap(({path, operands}) =>
		operands.map((kind, index) => `complete -c podtop ${condition('__podtop_operand', path, String(index + 1))} -a ${fishQuote(candidates(kind))}`),
	);
	const valueFlags = model.paths.map(
		({path, flags}) =>
			`\t\tcase ${fishQuote(path)}\n\t\t\tprintf '%s\\n' ${flags
				.filter(flag => flag.value)
				.map(flag => flag.spelling)
				.join(' ')}`,
	);

	return `# fish completion for podtop, written by \`podtop completion fish\` from podtop's own definitions
# of its commands and flags. Install it with
#   podtop completion fish > ~/.config/fish/completions/podtop.fish
# Profiles, endpoints, pods and GPU types come from \`podtop __complete\`: the agent serving the
# account on this host, or the account's recorded history. A Tab never sends a request to the service.

# Where the cursor is: - (the command), '' (the dashboard's flags), pod (its subcommand), pod stop.
function __podtop_path
	set -l words (commandline -opc)
	set -e words[1]
	if not set -q words[1]
		echo -- -
	else if string match -q -- '-*' $words[1]
		echo ''
	else if contains -- $words[1] ${parents.join(' ')}; and set -q words[2]
		echo -- "$words[1] $words[2]"
	else
		echo -- $words[1]
	end
end

function __podtop_at
	contains -- (__podtop_path) $argv
end

# The value flags of a path, one per line.
function __podtop_value_flags
	switch $argv[1]
${valueFlags.join('\n')}
	end
end

# Whether the cursor is at operand N of the path: the words after it that are no flag and no flag's value.
function __podtop_operand --argument-names path index
	test (__podtop_path) = "$path"; or return 1
	string match -q -- '-*' (commandline -ct); and return 1
	set -l words (commandline -opc)
	set -l values (__podtop_value_flags $path)
	set -l count 0
	set -l value 0
	for word in $words[(math 2 + (count (string split ' ' -- $path)))..-1]
		if test $value = 1
			set value 0
			continue
		end
		switch $word
			case --
				return 1
			case '-*=*'
			case '-*'
				contains -- $word $values; and set value 1
			case '*'
				set count (math $count + 1)
		end
	end
	test $value = 0; and test (math $count + 1) = $index
end

# The word being completed, without a --flag= in front.
function __podtop_token
	commandline -ct | string replace -r -- '^-[^=]*=' ''
end

# Candidates from podtop __complete: a value, then a tab and a description.
function __podtop_lookup
	set -l words (commandline -opc)
	command $words[1] __complete $argv[1] (__podtop_token) $words[2..-1] 2>/dev/null
end

# A value that may be JSON, @file or -: files after an @.
function __podtop_at_file
	set -l token (__podtop_token)
	test -z "$token"; or string match -q -- '@*' $token; or return
	__fish_complete_path (string sub -s 2 -- $token) | string replace -r -- '^' '@'
end

complete -c podtop -f
${[...commands, ...subcommands, ...flags, ...operands].join('\n')}
`;
}
