import {UsageError} from '../lib/usage-error.js';
import {commandFlags} from './command-flags.js';
import {shells} from './command-list.js';
import {bashScript} from './completion-bash.js';
import {fishScript} from './completion-fish.js';
import {completionModel} from './completion-model.js';
import {zshScript} from './completion-zsh.js';
import {parseCommandLine} from './parse-command-line.js';

export const completionHelp = `
	Usage
	  $ podtop completion bash|zsh|fish

	Prints the shell completion script for podtop: commands, subcommands, flags and their values
	(choices, files), profile names from ~/.runpod/config.toml, and the account's endpoint, pod and
	GPU type ids and names, from \`podtop agent\` when one serves the account on this host, else from
	the account's recorded history. A Tab press never sends a request to the service. The script is
	written from the same definitions the commands parse with, so it offers what podtop takes.

	Install
	  bash   podtop completion bash > ~/.local/share/bash-completion/completions/podtop
	         (or in ~/.bashrc: source <(podtop completion bash))
	  zsh    podtop completion zsh > ~/.zfunc/_podtop
	         (and in ~/.zshrc, before compinit: fpath=(~/.zfunc $fpath))
	  fish   podtop completion fish > ~/.config/fish/completions/podtop.fish
	Then open a new shell.

	Exit status: 0 ok, 2 usage (a shell podtop writes no script for).

	Examples
	  $ podtop completion bash > ~/.local/share/bash-completion/completions/podtop
	  $ source <(podtop completion zsh)
`;

const isShell = (word: string | undefined): word is (typeof shells)[number] => (shells as readonly string[]).includes(word ?? '');

/** `podtop completion bash|zsh|fish`: the script on stdout. */
export async function runCompletion(argv: readonly string[]): Promise<void> {
	const cli = parseCommandLine(completionHelp, argv, commandFlags.completion, 'podtop completion');
	const [shell, ...rest] = cli.input;
	if (!isShell(shell) || rest.length > 0) {
		const got = shell === undefined ? '' : `, not "${cli.input.join(' ')}"`;
		throw new UsageError(`podtop completion takes one shell: ${shells.join(', ')}${got} (like podtop completion bash; see podtop completion --help)`);
	}

	const model = completionModel();
	const write = {bash: bashScript, zsh: zshScript, fish: fishScript}[shell];
	process.stdout.write(write(model));
}
