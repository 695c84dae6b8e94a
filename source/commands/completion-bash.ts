import type {CompletionModel} from './completion-model.js';
import type {ValueKind} from './value-kind.js';

/** A word in single quotes for bash, zsh and fish alike. */
export const quote = (text: string) => `'${text.replaceAll("'", String.raw`'\''`)}'`;

/** How the bash script names a kind: `choices:a b c` or the kind itself. */
const kindWord = (kind: ValueKind | undefined) => (kind === undefined ? 'none' : typeof kind === 'string' ? kind : `choices:${kind.choices.join(' ')}`);

/**
What completes each value flag and operand, as `case` lines: `*' --profile'` for the kind a flag
has on most paths, `'sim --endpoints'` for a path where it differs (a number there, a list of ids
elsewhere); a value nothing completes (a number, a URL, free text) needs no line.
*/
function valueCases(model: CompletionModel): string[] {
	const byFlag = new Map<string, Array<{readonly path: string; readonly kind: string}>>();
	for (const {path, flags} of model.paths) {
		for (const flag of flags.filter(flag => flag.value)) {
			byFlag.set(flag.spelling, [...(byFlag.get(flag.spelling) ?? []), {path, kind: kindWord(flag.kind)}]);
		}
	}

	const exceptions: string[] = [];
	const usual: string[] = [];
	for (const [spelling, uses] of byFlag) {
		const counts = new Map<string, number>();
		for (const {kind} of uses) {
			counts.set(kind, (counts.get(kind) ?? 0) + 1);
		}

		const common = [...counts].sort(([, a], [, b]) => b - a)[0]![0];
		for (const {path, kind} of uses.filter(use => use.kind !== common)) {
			exceptions.push(`\t\t${quote(`${path} ${spelling}`)}) REPLY=${quote(kind)} ;;`);
		}

		if (common !== 'none') {
			usual.push(`\t\t*${quote(` ${spelling}`)}) REPLY=${quote(common)} ;;`);
		}
	}

	const operands = model.paths.flatMap(({path, operands}) =>
		operands.map((kind, index) => `\t\t${quote(`${path} #${index + 1}`)}) REPLY=${quote(kindWord(kind))} ;;`),
	);
	return [...exceptions, ...usual, ...operands];
}

/**
`podtop completion bash`: the commands, subcommands and each path's flags written into the script
(a Tab on them runs no program); a value only this host knows (profiles, the account's ids and
names) comes from `podtop __complete`, which asks the agent or reads the recorded history.
*/
export function bashScript(model: CompletionModel): string {
	const commands = model.commands.map(command => command.name).join(' ');
	const subcommands = model.commands
		.filter(command => command.subcommands.length > 0)
		.map(command => `\t\t${command.name}) REPLY=${quote(command.subcommands.map(sub => sub.name).join(' '))} ;;`);
	const flags = model.paths.map(
		({path, flags}) =>
			`\t\t${quote(path)}) REPLY=${quote(flags.map(flag => `${flag.spelling}${flag.value ? '=' : ''}${flag.repeatable ? '*' : ''}`).join(' '))} ;;`,
	);
	return `# bash completion for podtop, written by \`podtop completion bash\` from podtop's own
# definitions of its commands and flags. Install it with
#   podtop completion bash > ~/.local/share/bash-completion/completions/podtop
# or add to ~/.bashrc:  source <(podtop completion bash)
# Profiles, endpoints, pods and GPU types come from \`podtop __complete\`: the agent serving the
# account on this host, or the account's recorded history. A Tab never sends a request to the service.

_podtop_commands=${quote(commands)}

# The subcommands of a command, in REPLY.
_podtop_subcommands() {
	case $1 in
${subcommands.join('\n')}
		*) REPLY='' ;;
	esac
}

# The flags of a command path ('' is the dashboard), in REPLY: a value flag ends in =, a repeatable one in *.
_podtop_flags() {
	case $1 in
${flags.join('\n')}
		*) return 1 ;;
	esac
}

# What completes "path --flag" (its value) or "path #N" (the Nth operand), in REPLY.
_podtop_kind() {
	case $1 in
${valueCases(model).join('\n')}
		*) REPLY='' ;;
	esac
}

# Adds the candidates podtop __complete prints (a value, then a tab and a description) that start
# with the word, quoted for the line where they need it: escaped, or as they are inside an open
# quote. When none does, the one whose description (a pod's or an endpoint's name) starts with it:
# a name typed becomes its id.
_podtop_lookup() {
	local value line open='' word=$cur
	local -a found=() named=()
	case $word in
		\\"*|\\'*) open=\${word:0:1}; word=\${word:1} ;;
		*) word=\${word//\\\\/} ;;
	esac
	while IFS= read -r line; do
		value=\${line%%$'\\t'*}
		if [[ -n $value && $value == "$word"* ]]; then
			found+=("$value")
		elif [[ -n $word && $line == *$'\\t'"$word"* ]]; then
			named+=("$value")
		fi
	done < <("\${words[0]}" __complete "$1" "$word" "\${words[@]:1:cword-1}" 2>/dev/null)
	((\${#found[@]} == 0 && \${#named[@]} == 1)) && found=("\${named[@]}")
	for value in "\${found[@]}"; do
		[[ -n $open || $value != *[!A-Za-z0-9._,:@/+=%-]* ]] || printf -v value %q "$value"
		COMPREPLY+=("$value")
	done
}

# Completes a value of the given kind. A value with a colon is completed after it, as readline
# replaces only what follows the last colon (COMP_WORDBREAKS).
_podtop_value() {
	local IFS=$'\\n'
	case $1 in
		choices:*) COMPREPLY=($(IFS=' ' && compgen -W "\${1#choices:}" -- "$cur")) ;;
		file) compopt -o filenames 2>/dev/null; COMPREPLY=($(compgen -f -- "$cur")) ;;
		directory) compopt -o filenames 2>/dev/null; COMPREPLY=($(compgen -d -- "$cur")) ;;
		@file) [[ -z $cur || $cur == @* ]] && COMPREPLY=($(compgen -P @ -f -- "\${cur#@}")) ;;
		group) COMPREPLY=($(compgen -g -- "$cur")) ;;
		none | '') ;;
		*) _podtop_lookup "$1" ;;
	esac
	if [[ $cur == *:* && $COMP_WORDBREAKS == *:* ]]; then
		local colon=\${cur%"\${cur##*:}"}
		COMPREPLY=("\${COMPREPLY[@]#"$colon"}")
	fi
}

# The words of the line as written, into words and cword: bash splits them at = and : too
# (COMP_WORDBREAKS), so the pieces the line has no space between are put back together.
_podtop_words() {
	local i word pos=0 glued
	if [[ -z $COMP_LINE ]]; then
		words=("\${COMP_WORDS[@]}") cword=$COMP_CWORD
		return
	fi
	for ((i = 0; i < \${#COMP_WORDS[@]}; i++)); do
		word=\${COMP_WORDS[i]}
		glued=1
		while [[ \${COMP_LINE:pos:1} == [[:space:]] ]]; do
			((pos++))
			glued=0
		done
		if ((i > 0 && glued)); then
			words[\${#words[@]} - 1]+=$word
		else
			words+=("$word")
		fi
		((pos += \${#word}))
		((i == COMP_CWORD)) && cword=$((\${#words[@]} - 1))
	done
}

_podtop() {
	local cur cword=0 REPLY path start=2 i word flag='' operands=0 seen=' ' all
	local -a words=()
	_podtop_words
	cur=\${words[cword]}
	COMPREPLY=()
	if ((cword == 1)) && [[ $cur != -* ]]; then
		COMPREPLY=($(compgen -W "$_podtop_commands" -- "$cur"))
		return 0
	fi

	case \${words[1]} in
		-*) path='' start=1 ;;
		*)
			_podtop_subcommands "\${words[1]}"
			if [[ -n $REPLY ]]; then
				if ((cword == 2)); then
					COMPREPLY=($(compgen -W "$REPLY" -- "$cur"))
					return 0
				fi
				path="\${words[1]} \${words[2]}" start=3
			else
				path=\${words[1]}
			fi
			;;
	esac
	_podtop_flags "$path" || return 0
	all=" $REPLY "

	# Which words were flags, which their values, which operands.
	for ((i = start; i < cword; i++)); do
		word=\${words[i]}
		if [[ -n $flag ]]; then
			flag=''
			continue
		fi
		case $word in
			--) return 0 ;;
			-*=*) seen+="\${word%%=*} " ;;
			-*)
				seen+="$word "
				[[ $all == *" $word= "* || $all == *" $word=* "* ]] && flag=$word
				;;
			*) ((operands++)) ;;
		esac
	done

	if [[ -n $flag ]]; then
		_podtop_kind "$path $flag"
		_podtop_value "$REPLY"
		return 0
	fi

	# --flag=value: readline replaces what follows the = (unless = is no word break here).
	if [[ $cur == -*=* ]]; then
		flag=\${cur%%=*} cur=\${cur#*=}
		_podtop_kind "$path $flag"
		_podtop_value "$REPLY"
		[[ $COMP_WORDBREAKS == *=* ]] || COMPREPLY=("\${COMPREPLY[@]/#/$flag=}")
		return 0
	fi

	if [[ $cur != -* ]]; then
		_podtop_kind "$path #$((operands + 1))"
		if [[ -n $REPLY ]]; then
			_podtop_value "$REPLY"
			return 0
		fi
	fi

	# The flags not given yet (a repeatable one again).
	local -a spellings
	read -ra spellings <<<"$all"
	for word in "\${spellings[@]}"; do
		flag=\${word%'*'}
		flag=\${flag%=}
		if [[ $flag == "$cur"* ]] && [[ $word == *'*' || $seen != *" $flag "* ]]; then
			COMPREPLY+=("$flag")
		fi
	done
	return 0
}

complete -F _podtop podtop
`;
}
