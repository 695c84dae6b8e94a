import {quote} from './completion-bash.js';
import type {CompletionModel, FlagSpelling} from './completion-model.js';
import type {ValueKind} from './value-kind.js';

/** The action `_arguments` runs for a value: its choices, files, a lookup, or nothing (a space). */
function action(kind: ValueKind | undefined): string {
	if (kind === undefined) {
		return ' ';
	}

	if (typeof kind !== 'string') {
		return `(${kind.choices.join(' ')})`;
	}

	switch (kind) {
		case 'file': {
			return '_files';
		}

		case 'directory': {
			return '_files -/';
		}

		case '@file': {
			return '_podtop_at_file';
		}

		case 'group': {
			return '_groups';
		}

		default: {
			return `_podtop_lookup ${kind}`;
		}
	}
}

const flagSpec = ({spelling, value, kind, repeatable}: FlagSpelling) =>
	quote(`${repeatable ? '*' : ''}${spelling}${value ? `=:${spelling.replace(/^-+/, '')}:${action(kind)}` : ''}`);

const label = (kind: ValueKind) => (typeof kind === 'string' ? kind : 'value');

/** `name:summary` entries for `_describe` (a colon in the name escaped). */
const described = (entries: ReadonlyArray<{readonly name: string; readonly summary: string}>) =>
	entries.map(({name, summary}) => quote(`${name.replaceAll(':', String.raw`\:`)}:${summary}`)).join(' ');

/**
`podtop completion zsh`: `_arguments` specs for each command path, from the same definitions the
commands parse with; the commands and subcommands described by their summaries; a value only this
host knows comes from `podtop __complete` (the agent or the recorded history, never the service).
*/
export function zshScript(model: CompletionModel): string {
	const paths = model.paths.map(({path, flags, operands}) => {
		const specs = [...flags.map(flag => flagSpec(flag)), ...operands.map((kind, index) => quote(`${index + 1}:${label(kind)}:${action(kind)}`))];
		return `\t\t${quote(path)}) _arguments -S : \\\n\t\t\t${specs.join(' \\\n\t\t\t')} ;;`;
	});
	const dispatch = model.commands.map(({name, subcommands}) =>
		subcommands.length > 0
			? `\t\t${name})
			if ((CURRENT == 3)); then
				local -a subcommands=(${described(subcommands)})
				_describe -t subcommands ${quote(`podtop ${name} subcommand`)} subcommands
				return
			fi
			local command="$words[2] $words[3]"
			shift 2 words
			((CURRENT -= 2))
			_podtop_arguments "$command"
			;;`
			: `\t\t${name})
			shift words
			((CURRENT--))
			_podtop_arguments ${name}
			;;`,
	);
	return `#compdef podtop
# zsh completion for podtop, written by \`podtop completion zsh\` from podtop's own definitions of
# its commands and flags. Install it as _podtop in a folder of your $fpath, before compinit runs:
#   mkdir -p ~/.zfunc && podtop completion zsh > ~/.zfunc/_podtop
#   (and in ~/.zshrc, before compinit: fpath=(~/.zfunc $fpath))
# or, after compinit in ~/.zshrc:  source <(podtop completion zsh)
# Profiles, endpoints, pods and GPU types come from \`podtop __complete\`: the agent serving the
# account on this host, or the account's recorded history. A Tab never sends a request to the service.

# Candidates from podtop __complete (a value, then a tab and a description), for _describe. The
# kind comes last: _arguments puts compadd's options before it.
_podtop_lookup() {
	local kind=\${@[-1]} line value
	local -a candidates
	for line in "\${(@f)$(\${(Q)_podtop_line[1]} __complete $kind "\${(Q)PREFIX}" "\${(@Q)_podtop_line[2,_podtop_current-1]}" 2>/dev/null)}"; do
		[[ -n $line ]] || continue
		value=\${line%%$'\\t'*}
		value=\${value//:/\\\\:}
		if [[ $line == *$'\\t'* ]]; then
			candidates+=("$value:\${line#*$'\\t'}")
		else
			candidates+=("$value")
		fi
	done
	_describe -t $kind $kind candidates "\${@[1,-2]}"
}

# A value that may be JSON, @file or -: files after an @.
_podtop_at_file() {
	if compset -P '@'; then
		_files
	elif [[ -z $PREFIX ]]; then
		_files -P @
	else
		_message 'JSON, @file or -'
	fi
}

# The flags and operands of a command path ('' is the dashboard).
_podtop_arguments() {
	case $1 in
${paths.join('\n')}
	esac
}

_podtop() {
	local -a _podtop_line=("\${words[@]}")
	local _podtop_current=$CURRENT
	if ((CURRENT == 2)) && [[ $PREFIX != -* ]]; then
		local -a commands=(${described(model.commands)})
		_describe -t commands 'podtop command' commands
		return
	fi

	case $words[2] in
		-*) _podtop_arguments '' ;;
${dispatch.join('\n')}
	esac
}

if [[ $funcstack[1] == _podtop ]]; then
	_podtop "$@"
else
	compdef _podtop podtop
fi
`;
}
