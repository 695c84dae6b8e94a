/** A command of a readme's ```sh fence, read the way a shell would. */
export type ReadmeCommand = {
	/** Which ```sh fence of the readme (0-based): lines of one fence share a terminal, in order. */
	readonly fence: number;
	/** The command as written, comments and continuation lines folded, `|` alternatives expanded. */
	readonly text: string;
	/** `NAME=value` words before the program. */
	readonly env: Readonly<Record<string, string>>;
	/** The program and its arguments, quotes removed; `[optional]` parts kept without their brackets, `...` dropped. */
	readonly words: readonly string[];
	/** Ended with `&`: runs in the background while the fence goes on. */
	readonly background: boolean;
	/** What its output goes to, as written: `| jq …` or `> file` (not run: the step checks the output it reads). */
	readonly into?: string;
};

/** The fences of a Markdown text: language and body. An opening or closing line must hold the fence alone. */
export function fences(markdown: string): Array<{readonly lang: string; readonly body: string; readonly line: number}> {
	const found: Array<{lang: string; body: string; line: number}> = [];
	let open: {lang: string; lines: string[]; line: number} | undefined;
	for (const [index, line] of markdown.split('\n').entries()) {
		if (open) {
			if (/^```\s*$/.test(line)) {
				found.push({lang: open.lang, body: open.lines.join('\n'), line: open.line});
				open = undefined;
			} else {
				open.lines.push(line);
			}
		} else if (line.startsWith('```')) {
			open = {lang: line.slice(3).trim(), lines: [], line: index + 1};
		}
	}

	return found;
}

type Word = {readonly text: string; readonly quoted: boolean};

/** Splits a fence body into commands: quotes, `\` line ends, `#` comments, `&&` and a final `&`, as sh does. */
function splitCommands(body: string): Array<{readonly words: Word[]; readonly source: string; readonly background: boolean; readonly into?: string}> {
	const commands: Array<{words: Word[]; source: string; background: boolean; into?: string}> = [];
	let words: Word[] = [];
	let word: {text: string; quoted: boolean} | undefined;
	let source = '';
	let into: string | undefined;
	const endWord = () => {
		if (word) {
			words.push(word);
			word = undefined;
		}
	};

	const endCommand = (background: boolean) => {
		endWord();
		if (words.length > 0) {
			const text = source.replaceAll(/\s+/g, ' ').trim();
			commands.push({words, source: into ? `${text} ${into}` : text, background, ...(into ? {into} : {})});
		}

		words = [];
		source = '';
		into = undefined;
	};

	for (let index = 0; index < body.length; index++) {
		const char = body[index]!;
		if (char === "'" || char === '"') {
			const end = body.indexOf(char, index + 1);
			word = {text: (word?.text ?? '') + body.slice(index + 1, end), quoted: true};
			source += body.slice(index, end + 1);
			index = end;
		} else if (char === '\\' && body[index + 1] === '\n') {
			index++;
		} else if ((char === '|' || char === '>') && !word) {
			// A pipe or a redirect: the rest of the line is where the output goes (up to a comment).
			const lineEnd = body.includes('\n', index) ? body.indexOf('\n', index) : body.length;
			const comment = body.slice(index, lineEnd).search(/\s#\s/);
			const end = comment === -1 ? lineEnd : index + comment;
			into = body.slice(index, end).trim();
			index = end - 1;
		} else if (char === '#' && !word) {
			index = body.includes('\n', index) ? body.indexOf('\n', index) - 1 : body.length;
		} else if (char === '&') {
			const double = body[index + 1] === '&';
			endCommand(!double);
			index += double ? 1 : 0;
		} else if (char === '\n') {
			endCommand(false);
		} else if (/\s/.test(char)) {
			endWord();
			source += char;
		} else {
			word = {text: (word?.text ?? '') + char, quoted: word?.quoted ?? false};
			source += char;
		}
	}

	endCommand(false);
	return commands;
}

/** Every command of the ```sh fences, with `a|b|c` subcommands expanded into one command each. */
export function readmeCommands(markdown: string): ReadmeCommand[] {
	const commands: ReadmeCommand[] = [];
	for (const [fence, {body}] of fences(markdown)
		.filter(({lang}) => lang === 'sh')
		.entries()) {
		for (const {words, source, background, into} of splitCommands(body)) {
			const envWords = words.slice(
				0,
				words.findIndex(word => !/^[A-Z_]+=/.test(word.text)),
			);
			const env = Object.fromEntries(envWords.map(({text}) => [text.slice(0, text.indexOf('=')), text.slice(text.indexOf('=') + 1)]));
			const program = words
				.slice(envWords.length)
				.map(word => (word.quoted ? word : {...word, text: word.text.replace(/^\[/, '').replace(/](?:\.{3})?$/, '')}))
				.filter(word => word.quoted || (word.text !== '' && word.text !== '...'));
			const choice = program.findIndex(word => !word.quoted && /^[a-z]+(?:\|[a-z]+)+$/.test(word.text));
			const alternatives = choice === -1 ? [undefined] : program[choice]!.text.split('|');
			for (const alternative of alternatives) {
				const chosen = program.map((word, index) => (index === choice ? {text: alternative!, quoted: false} : word));
				commands.push({
					fence,
					text: alternative === undefined ? source : source.replace(program[choice]!.text, alternative),
					env,
					words: chosen.map(word => word.text),
					background,
					...(into ? {into} : {}),
				});
			}
		}
	}

	return commands;
}
