import meow, {type AnyFlags, type Result} from 'meow';
import {UsageError} from '../lib/usage-error.js';
import {withConfigDefaults} from './config-defaults.js';

const kebab = (name: string) => name.replaceAll(/[A-Z]/g, letter => `-${letter.toLowerCase()}`);

/** Edit distance, a swap of two neighbours counting as one (`--yse` is one slip from `--yes`). */
function distance(a: string, b: string): number {
	const rows = Array.from({length: a.length + 1}, (_, i) => Array.from({length: b.length + 1}, (_, j) => (i === 0 ? j : j === 0 ? i : 0)));
	for (let i = 1; i <= a.length; i++) {
		for (let j = 1; j <= b.length; j++) {
			const cost = a[i - 1] === b[j - 1] ? 0 : 1;
			let best = Math.min(rows[i - 1]![j]! + 1, rows[i]![j - 1]! + 1, rows[i - 1]![j - 1]! + cost);
			if (i > 1 && j > 1 && a[i - 1] === b[j - 2] && a[i - 2] === b[j - 1]) {
				best = Math.min(best, rows[i - 2]![j - 2]! + 1);
			}

			rows[i]![j] = best;
		}
	}

	return rows[a.length]![b.length]!;
}

const sharedPrefix = (a: string, b: string) => {
	let length = 0;
	while (length < a.length && a[length] === b[length]) {
		length++;
	}

	return length;
};

/** The closest known flag, when it is close enough to be a typo; ties go to the longer shared start. */
export function closestFlag(name: string, known: readonly string[]): string | undefined {
	let best: string | undefined;
	let bestDistance = Number.POSITIVE_INFINITY;
	for (const candidate of known) {
		const d = distance(name, candidate);
		if (d < bestDistance || (d === bestDistance && best !== undefined && sharedPrefix(name, candidate) > sharedPrefix(name, best))) {
			best = candidate;
			bestDistance = d;
		}
	}

	return bestDistance <= Math.max(1, Math.floor(name.length / 3)) ? best : undefined;
}

/** Flags other commands take that mean nothing to this one, refused with why rather than as a typo. */
const meaningless: Readonly<Record<string, string>> = {
	write: 'never writes, so --write means nothing to it (it lifts a read-only profile for the dashboard and the write verbs); drop it',
};

/** Refuses any flag the command does not know (a typo like --read-onyl must never be ignored). */
export function checkFlags(argv: readonly string[], flags: AnyFlags, command: string): void {
	const known = new Set(['help', 'version']);
	const shorts = new Set<string>();
	for (const [name, spec] of Object.entries(flags)) {
		known.add(kebab(name));
		if (spec.type === 'boolean') {
			known.add(`no-${kebab(name)}`);
		}

		for (const alias of spec.aliases ?? []) {
			known.add(kebab(alias));
		}

		if (spec.shortFlag) {
			shorts.add(spec.shortFlag);
		}
	}

	for (const argument of argv) {
		if (argument === '--') {
			return;
		}

		if (argument.startsWith('--')) {
			const name = argument.slice(2).split('=')[0]!;
			if (!known.has(name)) {
				const why = meaningless[name.replace(/^no-/, '')];
				if (why) {
					throw new UsageError(`\`${command}\` ${why}`);
				}

				const guess = closestFlag(name, [...known]);
				throw new UsageError(`unknown flag --${name} for \`${command}\`${guess ? ` (did you mean --${guess}?)` : ''}; see ${command} --help`);
			}
		} else if (/^-[^\d.-]/.test(argument) && !shorts.has(argument.slice(1))) {
			throw new UsageError(`unknown flag ${argument} for \`${command}\`; see ${command} --help`);
		}
	}
}

/** A word that is a value even though it starts with `-`: standard input, or a negative number. */
const dashValue = (word: string) => word === '-' || /^-(?:\d|\.\d)/.test(word);

/** Written as a number in full (`Number('')` is 0, so an empty word is not one). */
const isNumber = (word: string) => word.trim() !== '' && Number.isFinite(Number(word));

/**
 * Each value flag joined to its value as `--name=value` before meow (yargs-parser) sees it: it takes
 * the next word only when that does not start with `-`, so `--input -` lost its `-` and `--bid -1e3`
 * its number. A value flag with no value, or a flag where its value should be, is refused, as is a
 * number flag given something else (yargs-parser would make it null, or its default).
 */
export function joinFlagValues(argv: readonly string[], flags: AnyFlags, command: string): string[] {
	/** Each way to write a value flag (`--name`, its aliases, `-s`) → its long name and type. */
	const valueFlags = new Map<string, {readonly long: string; readonly type: string}>();
	for (const [name, spec] of Object.entries(flags)) {
		if (spec.type !== undefined && spec.type !== 'boolean') {
			const long = `--${kebab(name)}`;
			for (const written of [long, ...(spec.aliases ?? []).map(alias => `--${kebab(alias)}`), ...(spec.shortFlag ? [`-${spec.shortFlag}`] : [])]) {
				valueFlags.set(written, {long, type: spec.type});
			}
		}
	}

	const joined: string[] = [];
	for (let index = 0; index < argv.length; index++) {
		const argument = argv[index]!;
		if (argument === '--') {
			joined.push(...argv.slice(index));
			break;
		}

		const equals = argument.indexOf('=');
		const flag = equals === -1 ? argument : argument.slice(0, equals);
		const spec = valueFlags.get(flag);
		if (!spec) {
			joined.push(argument);
			continue;
		}

		let value = argument.slice(equals + 1);
		if (equals === -1) {
			const next = argv[index + 1];
			if (next === undefined || next === '--') {
				throw new UsageError(`${flag} needs a value; see ${command} --help`);
			}

			if (next.startsWith('-') && !dashValue(next)) {
				const how = next.startsWith('--') ? '' : ` (write ${flag}=${next} for a value starting with -)`;
				throw new UsageError(`${flag} needs a value, not the flag ${next}${how}; see ${command} --help`);
			}

			value = next;
			index++;
		}

		if (spec.type === 'number' && !isNumber(value)) {
			throw new UsageError(`${flag} takes a number; got ${JSON.stringify(value)}`);
		}

		joined.push(`${spec.long}=${value}`);
	}

	return joined;
}

/**
meow, refusing unknown flags and value flags without a value with a sentence and exit 2. `--help`
anywhere before `--` prints the help and exits 0 (meow shows it only when it is the one word, so
`podtop pod stop abc --help` stopped the pod). The defaults of the UI flags come from podtop's
config file when it sets them (not for `doctor`, which must run to say what is wrong with it).
*/
export function parseCommandLine<Flags extends AnyFlags>(
	help: string,
	argv: readonly string[],
	flags: Flags,
	command: string,
	{env = process.env, configDefaults = true}: {readonly env?: NodeJS.ProcessEnv; readonly configDefaults?: boolean} = {},
): Result<Flags> {
	const end = argv.indexOf('--');
	if ((end === -1 ? argv : argv.slice(0, end)).includes('--help')) {
		return meow(help, {importMeta: import.meta, argv: ['--help'], flags});
	}

	const joined = joinFlagValues(argv, flags, command);
	checkFlags(joined, flags, command);
	// Defaults from ~/.config/podtop/config.toml (and the profile's section); the command line wins.
	return meow(help, {importMeta: import.meta, argv: joined, flags: configDefaults ? withConfigDefaults(flags, joined, env) : flags, allowUnknownFlags: false});
}

/**
The command line as if `--profile NAME` had been given instead of any profile it names: every other
flag as written (for `:profile NAME`, which opens what `podtop --profile NAME …` would).
*/
export function withProfile(argv: readonly string[], flags: AnyFlags, command: string, name: string): string[] {
	const joined = joinFlagValues(argv, flags, command);
	const end = joined.indexOf('--');
	const before = end === -1 ? joined : joined.slice(0, end);
	const after = end === -1 ? [] : joined.slice(end);
	return [...before.filter(argument => !argument.startsWith('--profile=')), `--profile=${name}`, ...after];
}
