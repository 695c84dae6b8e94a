import {spawn, type ChildProcessWithoutNullStreams} from 'node:child_process';
import {mkdtempSync, rmSync} from 'node:fs';
import {tmpdir} from 'node:os';
import path from 'node:path';
import {fileURLToPath} from 'node:url';

export const cliPath = fileURLToPath(new URL('../../dist/bundle/podtop.js', import.meta.url));

let stateHome: string | undefined;

/**
A state folder of this test file's own (\`XDG_STATE_HOME\` unless a test gives one): the fallback home is
one for every test on the machine, and a DEMO dashboard serves its simulator to the podtops of the
same state folder (readme: the demo is one account), which would join tests that run side by side.
*/
export function testStateHome(): string {
	if (stateHome === undefined) {
		const made = mkdtempSync(path.join(tmpdir(), 'podtop-test-state-'));
		stateHome = made;
		process.once('exit', () => {
			rmSync(made, {recursive: true, force: true});
		});
	}

	return stateHome;
}

/** The environment for a child podtop: no inherited key, a home without a config file, a state folder of this test file's, CI unset. */
export function cliEnv(extra: Record<string, string | undefined> = {}): NodeJS.ProcessEnv {
	const env: NodeJS.ProcessEnv = {...process.env, HOME: '/nonexistent-podtop-home', XDG_STATE_HOME: testStateHome(), NODE_ENV: 'production', ...extra};
	delete env.RUNPOD_API_KEY;
	delete env.CI;
	for (const [key, value] of Object.entries(extra)) {
		if (value === undefined) {
			delete env[key];
		} else {
			env[key] = value;
		}
	}

	return env;
}

export type CliResult = {readonly code: number | null; readonly stdout: string; readonly stderr: string};

/** Runs the built CLI to completion (or until `timeoutMs`, then SIGTERM); `stdin`, when given, is piped in and closed. */
export async function runCli(args: readonly string[], env: NodeJS.ProcessEnv = cliEnv(), timeoutMs = 20_000, stdin?: string): Promise<CliResult> {
	const child = spawn(process.execPath, [cliPath, ...args], {env});
	if (stdin !== undefined) {
		child.stdin.end(stdin);
	}

	return collect(child, timeoutMs);
}

export async function collect(child: ChildProcessWithoutNullStreams, timeoutMs: number): Promise<CliResult> {
	let stdout = '';
	let stderr = '';
	child.stdout.setEncoding('utf8');
	child.stderr.setEncoding('utf8');
	child.stdout.on('data', (text: string) => {
		stdout += text;
	});
	child.stderr.on('data', (text: string) => {
		stderr += text;
	});
	const timer = setTimeout(() => child.kill('SIGTERM'), timeoutMs);
	const code = await new Promise<number | null>(resolve => child.once('close', resolve));
	clearTimeout(timer);
	return {code, stdout, stderr};
}
