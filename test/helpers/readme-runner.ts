import {spawn, spawnSync} from 'node:child_process';
import {mkdirSync} from 'node:fs';
import path from 'node:path';
import {fileURLToPath} from 'node:url';
import type {ReadmeCommand} from './readme-commands.js';
import {cliEnv, cliPath, collect, type CliResult} from './run-cli.js';
import {hasTmux, TmuxSession} from './tmux.js';

export const repoRoot = fileURLToPath(new URL('../..', import.meta.url));

/** Values for a command's placeholders: a whole word or a word's part such as `<endpoint>`, `N`, `8787`. */
export type Fill = Readonly<Record<string, string>>;

/** What a run of a readme command gave: its exit, its output, and for the dashboard its screen. */
export type Outcome = CliResult & {readonly screen?: string};

/** How the test runs one readme command: the readme's word for what it does, turned into exits and checks. */
export type Step<Fleet> = {
	/** Matched against the command as written (env words included, placeholders unfilled). */
	readonly match: RegExp;
	/** Not run, and why: said in the test's name. */
	readonly skip?: string;
	/** `once` runs to its end; `long` runs until it shows it works, serves those that need it, then gets a signal; `dashboard` runs in tmux and quits with q. */
	readonly how?: 'once' | 'long' | 'dashboard';
	/** false: run with no API key nor the simulator's URLs (the demo, `sim`, curl); otherwise both are given. */
	readonly live?: boolean;
	/** Run through npm itself rather than as `podtop` (`npm start -- ARGS` is `podtop ARGS`). */
	readonly npm?: boolean;
	/** Words added, and why the line is not run quite as written (say, --dry-run on a write). */
	readonly adds?: readonly string[];
	readonly why?: string;
	/** Steps (by their match) that must be up, for a long one, or done first. */
	readonly needs?: readonly RegExp[];
	readonly stdin?: string;
	readonly stop?: 'SIGINT' | 'SIGTERM';
	/** A long or dashboard run is up once its output (or screen) matches. */
	readonly ready?: (fleet: Fleet) => RegExp;
	/** Done while a once run runs (say, let the job it follows go on once it looks). */
	readonly during?: (fleet: Fleet) => Promise<void>;
	/** Values later steps may use, read from a long run's output once it is up. */
	readonly provides?: (output: string) => Fill;
	/** One run per entry (the readme says two outcomes), each with its own fill and exit. */
	readonly runs: ReadonlyArray<{
		readonly label?: string;
		readonly fill?: (fleet: Fleet, cwd: string) => Fill | Promise<Fill>;
		readonly exit: number;
		readonly check?: (outcome: Outcome, fleet: Fleet) => void | Promise<void>;
	}>;
};

const escape = (text: string) => text.replaceAll(/[.*+?^${}()|[\]\\]/g, String.raw`\$&`);

/** The words with each placeholder replaced where it stands as a word or between punctuation (`:8787/`, `Bearer KEY`). */
export function fillWords(words: readonly string[], fill: Fill): string[] {
	return words.map(word =>
		Object.entries(fill).reduce((text, [key, value]) => text.replaceAll(new RegExp(String.raw`(?<![\w-])${escape(key)}(?![\w-])`, 'g'), () => value), word),
	);
}

/** A folder per fence, as a terminal of its own: working directory, state, runtime and temporary folders. */
export function fenceFolders(scratch: string, fence: number): {readonly cwd: string; readonly env: Record<string, string>} {
	const base = path.join(scratch, String(fence));
	mkdirSync(base, {mode: 0o700});
	return {cwd: base, env: {XDG_STATE_HOME: path.join(base, 'state'), XDG_RUNTIME_DIR: base, TMPDIR: base}};
}

/** The program to start for a readme command: podtop (for `npm start -- …` too, unless through npm), or curl. */
export function programFor(command: ReadmeCommand, words: readonly string[], npm: boolean): {readonly file: string; readonly args: string[]} {
	const [program, ...rest] = words;
	if (program === 'podtop') {
		return {file: process.execPath, args: [cliPath, ...rest]};
	}

	if (program === 'npm' && rest[0] === 'start') {
		const args = rest[1] === '--' ? rest.slice(2) : rest.slice(1);
		return npm ? {file: 'npm', args: ['start', '--silent', ...(args.length > 0 ? ['--', ...args] : [])]} : {file: process.execPath, args: [cliPath, ...args]};
	}

	if (program === 'curl') {
		return {file: 'curl', args: ['--silent', '--max-time', '15', ...rest]};
	}

	throw new Error(`no way to run "${command.text}"`);
}

/** A running long command: its output so far (both streams, and each), a wait for a pattern in it, and a stop that says how it ended. */
export function startLong(file: string, args: readonly string[], env: NodeJS.ProcessEnv, cwd: string) {
	const child = spawn(file, args, {env, cwd});
	child.stdin.end();
	const done = collect(child, 120_000);
	const said = {both: '', stdout: '', stderr: ''};
	for (const stream of ['stdout', 'stderr'] as const) {
		child[stream].on('data', (text: string) => {
			said.both += text;
			said[stream] += text;
		});
	}

	return {
		output: () => ({...said}),
		async until(pattern: RegExp, timeoutMs = 20_000): Promise<string> {
			const deadline = Date.now() + timeoutMs;
			while (!pattern.test(said.both)) {
				if (Date.now() > deadline || child.exitCode !== null) {
					throw new Error(`never showed ${pattern}; it said:\n${said.both}`);
				}

				await new Promise(resolve => setTimeout(resolve, 50));
			}

			return said.both;
		},
		async stop(signal: NodeJS.Signals): Promise<CliResult> {
			child.kill(signal);
			return done;
		},
	};
}

/** Runs a command to its end. */
export async function runOnce(file: string, args: readonly string[], env: NodeJS.ProcessEnv, cwd: string, stdin?: string): Promise<CliResult> {
	const child = spawn(file, args, {env, cwd});
	child.stdin.end(stdin ?? '');
	return collect(child, 25_000);
}

/** The dashboard in a real terminal: up once the screen matches, then q; the shell says how it exited. */
export async function runDashboard(args: readonly string[], env: Record<string, string>, ready: RegExp): Promise<Outcome> {
	const session = new TmuxSession(120, 36, args, env);
	try {
		const screen = await session.waitFor(ready, 25_000);
		session.send('q');
		const after = await session.waitFor(/PODTOP-EXIT \d+/, 10_000);
		return {code: Number(/PODTOP-EXIT (\d+)/.exec(after)![1]), stdout: '', stderr: '', screen};
	} finally {
		session.close();
	}
}

/** The environment of a readme command: a home with no config, CI unset, its fence's folders, the key when live. */
export function commandEnv(command: ReadmeCommand, fence: Record<string, string>, key: string | undefined): NodeJS.ProcessEnv {
	const named = Object.fromEntries(Object.keys(command.env).map(name => [name, name === 'RUNPOD_API_KEY' ? key : command.env[name]]));
	return cliEnv({...fence, ...named, RUNPOD_API_KEY: key});
}

type Gate = {readonly promise: Promise<Fill>; readonly resolve: (fill: Fill) => void};
const gate = (): Gate => {
	let resolve!: (fill: Fill) => void;
	const promise = new Promise<Fill>(done => {
		resolve = done;
	});
	return {promise, resolve};
};

/** At most `limit` commands starting or running to their end at once (a long one holds a place until it is up). */
const semaphore = (limit: number) => {
	let free = limit;
	const waiting: Array<() => void> = [];
	return async <T>(work: () => Promise<T>): Promise<T> => {
		if (free === 0) {
			await new Promise<void>(resolve => waiting.push(resolve));
		} else {
			free--;
		}

		try {
			return await work();
		} finally {
			const next = waiting.shift();
			if (next) {
				next();
			} else {
				free++;
			}
		}
	};
};

const hasCurl = spawnSync('curl', ['--version'], {stdio: 'ignore'}).status === 0;

/** Why a command is not run, if it is not: its step says so, or a program it needs is not installed here. */
export function notRun<Fleet>(step: Step<Fleet>, command: ReadmeCommand): string | undefined {
	if (step.skip) {
		return step.skip;
	}

	if (step.how === 'dashboard' && !hasTmux) {
		return 'the dashboard needs tmux, which is not installed here';
	}

	return command.words[0] === 'curl' && !hasCurl ? 'curl is not installed here' : undefined;
}

type Options<Fleet> = {
	readonly steps: ReadonlyArray<Step<Fleet>>;
	readonly fleet: Fleet;
	readonly key: string;
	readonly urls: readonly string[];
	/** Where each fence gets its folder (the caller removes it). */
	readonly scratch: string;
	readonly limit?: number;
};

/**
 * Starts every command with a step, at once but for what each needs (and `limit` at a time): each
 * promise says what went wrong with its command (nothing: it did what the readme says). A long one
 * stays up until every step that needs it is done, then gets its signal and must exit as told.
 */
export function runSteps<Fleet>(
	commands: readonly ReadmeCommand[],
	{steps, fleet, key, urls, scratch, limit = 4}: Options<Fleet>,
): Map<ReadmeCommand, Promise<string[]>> {
	const slot = semaphore(limit);
	const up = new Map<Step<Fleet>, Gate>(steps.map(step => [step, gate()]));
	const done = new Map<Step<Fleet>, Gate>(steps.map(step => [step, gate()]));
	const folders = new Map<number, ReturnType<typeof fenceFolders>>();
	const folderOf = (fence: number) => folders.get(fence) ?? folders.set(fence, fenceFolders(scratch, fence)).get(fence)!;
	const stepOf = (command: ReadmeCommand) => steps.find(step => step.match.test(command.text));
	const needed = (need: RegExp) => steps.find(step => step.match === need)!;

	async function execute(command: ReadmeCommand, step: Step<Fleet>): Promise<string[]> {
		const found: string[] = [];
		const provided = Object.assign({}, ...(await Promise.all((step.needs ?? []).map(async need => up.get(needed(need))!.promise)))) as Fill;
		const {cwd: fenceCwd, env: fenceEnv} = folderOf(command.fence);
		const cwd = step.npm ? repoRoot : fenceCwd;
		const live = step.live ?? true;
		const env = commandEnv(command, fenceEnv, live ? key : undefined);
		for (const run of step.runs) {
			const label = run.label ? `${run.label}: ` : '';
			/** The command filled in, made just before it starts (a job it names must not end first). */
			const program = async () => {
				const fill = {...provided, ...(await run.fill?.(fleet, cwd))};
				return programFor(command, [...fillWords(command.words, fill), ...(step.adds ?? []), ...(live ? urls : [])], step.npm ?? false);
			};

			try {
				let outcome: Outcome;
				if (step.how === 'dashboard') {
					const extra = Object.fromEntries(Object.entries(env).filter(([name]) => name in fenceEnv || name === 'RUNPOD_API_KEY')) as Record<string, string>;
					outcome = await slot(async () => runDashboard((await program()).args.slice(1), extra, step.ready!(fleet)));
				} else if (step.how === 'long') {
					const running = await slot(async () => {
						const {file, args} = await program();
						const started = startLong(file, args, env, cwd);
						try {
							await started.until(step.ready!(fleet));
						} catch (error) {
							await started.stop('SIGKILL');
							throw error;
						}

						return started;
					});
					const {both, stdout, stderr} = running.output();
					try {
						await run.check?.({code: null, stdout, stderr}, fleet);
					} finally {
						up.get(step)!.resolve(step.provides?.(both) ?? {});
						const dependents = steps.filter(other => other.needs?.includes(step.match));
						await Promise.all(dependents.map(async other => done.get(other)!.promise));
						outcome = await running.stop(step.stop ?? 'SIGTERM');
					}
				} else {
					outcome = await slot(async () => {
						const {file, args} = await program();
						const [result] = await Promise.all([runOnce(file, args, env, cwd, step.stdin), step.during?.(fleet)]);
						return result;
					});
				}

				if (outcome.code !== run.exit) {
					found.push(`${label}exited ${outcome.code}, not ${run.exit}; stdout: ${outcome.stdout.slice(0, 500)} stderr: ${outcome.stderr.slice(0, 500)}`);
				} else if (step.how !== 'long') {
					await run.check?.(outcome, fleet);
				}
			} catch (error) {
				found.push(`${label}${error instanceof Error ? error.message : String(error)}`);
			}
		}

		return found;
	}

	const results = new Map<ReadmeCommand, Promise<string[]>>();
	const finish = (step: Step<Fleet>) => {
		up.get(step)!.resolve({});
		done.get(step)!.resolve({});
	};

	const started = new Set<Step<Fleet>>();
	for (const command of commands) {
		const step = stepOf(command);
		if (step && notRun(step, command) === undefined) {
			started.add(step);
			results.set(
				command,
				execute(command, step).finally(() => {
					finish(step);
				}),
			);
		}
	}

	// What will not run (skipped, or wanting a program not installed here) holds nothing up.
	for (const step of steps.filter(step => !started.has(step))) {
		finish(step);
	}

	return results;
}
