import {execFileSync, spawn} from 'node:child_process';
import {mkdirSync, readFileSync, writeFileSync} from 'node:fs';
import {join} from 'node:path';
import {afterAll, beforeAll, describe, expect, test} from 'vitest';
import {commandFlags} from '../../source/commands/command-flags.js';
import {commandList} from '../../source/commands/command-list.js';
import {checkFlags} from '../../source/commands/parse-command-line.js';
import type {CompletableFlags} from '../../source/commands/value-kind.js';
import {gqlData} from '../helpers/graphql-client.js';
import {cliPath, runCli} from '../helpers/run-cli.js';
import {startTestSim, waitFor} from '../helpers/sim-client.js';
import {bashTab, completionFixture, fishComplete, hasShell, ShellSession, type CompletionFixture} from '../helpers/shell-completion.js';
import {hasTmux} from '../helpers/tmux.js';

const kebab = (name: string) => name.replaceAll(/[A-Z]/g, letter => `-${letter.toLowerCase()}`);

/** Every way to call podtop, as the command list says: `''` (the dashboard), `snapshot`, `pod stop`. */
const paths = [
	'',
	...commandList.flatMap(command => ('subcommands' in command ? command.subcommands.map(sub => `${command.name} ${sub.name}`) : [command.name])),
];

/** The flags a path's definitions give, as typed: a flag on by default is typed to turn it off (`--no-agent`). */
function definedFlags(path: string): string[] {
	const flags = commandFlags[path as keyof typeof commandFlags] as CompletableFlags;
	return Object.entries(flags)
		.filter(([, spec]) => !spec.hidden)
		.map(([name, spec]) => `--${spec.type === 'boolean' && spec.default === true && !spec.writtenOn ? 'no-' : ''}${kebab(name)}`);
}

/** The flags the bash script offers each path, from its `_podtop_flags` table. */
function bashFlags(script: string): Map<string, string[]> {
	const table = /_podtop_flags\(\) {\n([\s\S]*?)\n}/.exec(script)![1]!;
	return new Map(
		[...table.matchAll(/^\t\t'([^']*)'\) REPLY='([^']*)' ;;$/gm)].map(([, path, flags]) => [path!, flags!.split(' ').map(flag => flag.replace(/=?\*?$/, ''))]),
	);
}

let fixture: CompletionFixture;
let home: string;

beforeAll(async () => {
	fixture = await completionFixture();
	// A home with a config file of three profiles, whose keys must never be printed.
	home = join(fixture.folder, 'home');
	mkdirSync(join(home, '.runpod'), {recursive: true});
	writeFileSync(
		join(home, '.runpod', 'config.toml'),
		'apikey = "rpa_TOPLEVELSECRET"\n[default]\napi_key = "rpa_DEFAULTSECRET"\n[prod]\napi_key = "rpa_PRODSECRET"\n["team b"]\napi_key = "rpa_TEAMSECRET"\n',
		{mode: 0o600},
	);
}, 60_000);

afterAll(() => {
	fixture.remove();
});

describe('podtop completion', () => {
	test('every command, subcommand and flag of the definitions is in each script, on the command that takes it', () => {
		const bash = readFileSync(fixture.script('bash'), 'utf8');
		const zsh = readFileSync(fixture.script('zsh'), 'utf8');
		const fish = readFileSync(fixture.script('fish'), 'utf8');
		const offered = bashFlags(bash);
		expect([...offered.keys()].toSorted()).toEqual(paths.toSorted());

		for (const command of commandList) {
			expect(bash).toMatch(new RegExp(String.raw`^_podtop_commands='.*\b${command.name}\b`, 'm'));
			expect(zsh, command.name).toContain(`'${command.name}:`);
			expect(fish, command.name).toContain(`-a '${command.name}' -d `);
			for (const sub of 'subcommands' in command ? command.subcommands : []) {
				expect(bash).toMatch(new RegExp(String.raw`^\t\t${command.name}\) REPLY='.*\b${sub.name}\b`, 'm'));
				expect(zsh, sub.name).toContain(`'${sub.name}:`);
				expect(fish, sub.name).toContain(String.raw`__podtop_at \'${command.name}\'' -a '${sub.name}'`);
			}
		}

		for (const path of paths) {
			const block = new RegExp(String.raw`^\t\t'${path}'\) _arguments -S : \\\n([\s\S]*?) ;;$`, 'm').exec(zsh)?.[1] ?? '';
			expect(block, `zsh has ${path || 'the dashboard'}`).not.toBe('');
			for (const flag of definedFlags(path)) {
				expect(offered.get(path), `bash: ${path} ${flag}`).toContain(flag);
				expect(block, `zsh: ${path} ${flag}`).toMatch(new RegExp(String.raw`'\*?${flag}[=']`));
				// A fish rule for the flag whose condition names the path.
				const rules = fish.split('\n').filter(line => line.endsWith(` -l ${flag.slice(2)}`) || line.includes(` -l ${flag.slice(2)} `));
				expect(
					rules.some(rule => rule.includes(String.raw`\'${path}\'`)),
					`fish: ${path} ${flag}`,
				).toBe(true);
			}
		}

		// The key is refused on the command line, never offered (the simulator takes one).
		for (const path of paths) {
			expect(offered.get(path), path).toHaveProperty('includes');
			expect(offered.get(path)!.includes('--api-key'), path).toBe(path === 'sim');
		}
	});

	test("each flag a script offers is one the command's parser takes and its --help documents", async () => {
		const offered = bashFlags(readFileSync(fixture.script('bash'), 'utf8'));
		const undocumented: string[] = [];
		for (const path of paths) {
			const help = await runCli([...path.split(' ').filter(Boolean), '--help']);
			expect(help.code, `${path} --help`).toBe(0);
			const flags = commandFlags[path as keyof typeof commandFlags];
			for (const flag of offered.get(path)!.filter(flag => flag !== '--help' && flag !== '--version')) {
				expect(() => {
					checkFlags([flag], flags, `podtop ${path}`);
				}, `${path} ${flag}`).not.toThrow();
				if (!new RegExp(String.raw`${flag}\b`).test(help.stdout)) {
					undocumented.push(`${path} ${flag}`);
				}
			}
		}

		expect(undocumented).toEqual([]);
	}, 240_000);

	test('another shell is exit 2, naming the three', async () => {
		const other = await runCli(['completion', 'tcsh']);
		expect(other.code).toBe(2);
		expect(other.stderr).toBe(
			'podtop: podtop completion takes one shell: bash, zsh, fish, not "tcsh" (like podtop completion bash; see podtop completion --help)\n',
		);
		expect(other.stdout).toBe('');
		expect((await runCli(['completion'])).code).toBe(2);
	});

	test('in a real bash: commands, subcommands, flags not given yet, choices, files and profiles', async () => {
		// Sourced, the script has bash run _podtop on a Tab after podtop.
		const registered = execFileSync('bash', ['--norc', '--noprofile', '-c', 'source "$1"; complete -p podtop', 'bash', fixture.script('bash')], {
			env: fixture.env,
			encoding: 'utf8',
		});
		expect(registered).toBe('complete -F _podtop podtop\n');
		expect(await bashTab(fixture, ['podtop', 'po'])).toEqual(['pod']);
		expect(await bashTab(fixture, ['podtop', 'pod', 'st'])).toEqual(['stop']);
		expect(await bashTab(fixture, ['podtop', 'e'])).toEqual(['endpoint', 'events', 'export']);
		expect(await bashTab(fixture, ['podtop', 'snapshot', '--hi'])).toEqual(['--history-dir', '--history-source']);
		// pod stop records nothing: no history flags there.
		expect(await bashTab(fixture, ['podtop', 'pod', 'stop', '--hi'])).toEqual([]);
		expect(await bashTab(fixture, ['podtop', '--no-'])).toEqual(['--no-agent', '--no-color', '--no-history', '--no-bell']);
		// A flag given is not offered again, a repeatable one is.
		expect(await bashTab(fixture, ['podtop', 'pod', 'deploy', '--json', '--j'])).toEqual([]);
		expect(await bashTab(fixture, ['podtop', 'pod', 'deploy', '--env', 'A=1', '--e'])).toEqual(['--endpoints', '--env']);
		// A value flag's value is not an operand, and the operand after it is counted right.
		expect(await bashTab(fixture, ['podtop', 'completion', ''])).toEqual(['bash', 'zsh', 'fish']);
		expect(await bashTab(fixture, ['podtop', 'history', '--kind', ''])).toEqual(['endpoint', 'pod', 'gpu', 'account']);
		expect(await bashTab(fixture, ['podtop', 'pod', 'deploy', '--cloud', 's'])).toEqual(['secure']);
		// --cloud=s as bash splits it (at the =) and as the line has it.
		expect(await bashTab(fixture, ['podtop', 'pod', 'deploy', '--cloud', '=', 's'], ['podtop pod deploy --cloud=s'])).toEqual(['secure']);
		expect(await bashTab(fixture, ['podtop', 'events', '--type', 'alert,w'])).toEqual(['alert,write', 'alert,workers']);
		// A folder flag offers folders only (the scripts and the podtop link beside home are files).
		expect(await bashTab(fixture, ['podtop', 'snapshot', '--history-dir', `${fixture.folder}/`])).toEqual([`${fixture.folder}/home`]);
		expect(await bashTab(fixture, ['podtop', '--audit-log', `${fixture.folder}/completion.b`])).toEqual([`${fixture.folder}/completion.bash`]);
		expect(await bashTab(fixture, ['podtop', 'run', 'x', '--input', `@${fixture.folder}/completion.f`])).toEqual([`@${fixture.folder}/completion.fish`]);
		// Free text completes nothing (no file names for a prompt).
		expect(await bashTab(fixture, ['podtop', 'run', 'x', '--prompt', ''])).toEqual([]);

		// Profiles: the sections of ~/.runpod/config.toml, a name with a space escaped; never a key.
		const withHome = {...fixture, env: {...fixture.env, HOME: home}};
		expect(await bashTab(withHome, ['podtop', 'snapshot', '--profile', ''])).toEqual(['default', 'prod', String.raw`team\ b`]);
		expect(await bashTab(withHome, ['podtop', 'snapshot', '--profile', '"team'])).toEqual(['team b']);
		const {stdout} = await runCli(['__complete', 'profile', ''], withHome.env);
		expect(stdout).toBe('default\nprod\nteam b\n');
		expect(stdout).not.toMatch(/SECRET/);
	}, 120_000);

	test.skipIf(!hasShell('fish'))(
		`in fish: the same, with summaries as descriptions${hasShell('fish') ? '' : ' (not run: fish is not installed here)'}`,
		async () => {
			expect(await fishComplete(fixture, 'podtop po')).toEqual(['pod\tstop, resume, terminate, deploy (podtop pod --help)']);
			expect(await fishComplete(fixture, 'podtop pod st')).toEqual(['stop\tStop a pod: its container disk is wiped, its volume kept']);
			expect(await fishComplete(fixture, 'podtop snapshot --hi')).toEqual(['--history-dir', '--history-source']);
			expect(await fishComplete(fixture, 'podtop pod stop --hi')).toEqual([]);
			expect(await fishComplete(fixture, 'podtop pod deploy --cloud=')).toEqual(['--cloud=all', '--cloud=community', '--cloud=secure']);
			expect(await fishComplete(fixture, 'podtop completion ')).toEqual(['bash', 'fish', 'zsh']);
			expect(await fishComplete(fixture, 'podtop events --type alert,w')).toEqual(['alert,write', 'alert,workers']);
			expect(await fishComplete({...fixture, env: {...fixture.env, HOME: home}}, 'podtop --profile ')).toEqual(['default', 'prod', 'team b']);
		},
		60_000,
	);

	test.skipIf(!hasShell('zsh') || !hasTmux)(
		`in zsh, typed in a real terminal${hasShell('zsh') && hasTmux ? '' : ' (not run: zsh or tmux is not installed here)'}`,
		async () => {
			const rc = join(fixture.folder, 'zdot');
			mkdirSync(rc);
			writeFileSync(join(rc, '.zshrc'), `autoload -Uz compinit && compinit -u\nsource ${fixture.script('zsh')}\nPS1='%% '\n`);
			const zsh = new ShellSession(['zsh', '-i'], {...fixture.env, ZDOTDIR: rc, TERM: 'xterm-256color'});
			try {
				await zsh.waitFor(/^%/m);
				zsh.type('podtop po', 'Tab');
				await zsh.waitFor(/^% podtop pod\s*$/m);
				zsh.type('st', 'Tab');
				await zsh.waitFor(/^% podtop pod stop\s*$/m);
				zsh.reset();
				zsh.type('podtop pod deploy --cloud=', 'Tab');
				await zsh.waitFor(/^all\s+community\s+secure\s*$/m);
				zsh.reset();
				zsh.type('podtop snapshot --history-d', 'Tab');
				await zsh.waitFor(/^% podtop snapshot --history-dir=?\s*$/m);
			} finally {
				zsh.close();
			}
		},
		60_000,
	);
});

describe("the account's ids, from the agent or the recorded history, never from the service", () => {
	test('pod stop <Tab> offers the pods the agent serves (a name typed becomes its id); with the agent gone, the history it recorded; no request on a Tab', async () => {
		const key = 'rpa_COMPLETIONAGENT000011112222333344';
		const sim = await startTestSim({apiKey: key});
		const service = ['--api-url', `${sim.url}/v2`, '--graphql-url', `${sim.url}/graphql`];
		const env = {...fixture.env, RUNPOD_API_KEY: key, XDG_RUNTIME_DIR: join(fixture.folder, 'run'), XDG_STATE_HOME: join(fixture.folder, 'state')};
		mkdirSync(env.XDG_RUNTIME_DIR, {recursive: true});
		const account = {...fixture, env};
		const {myself} = await gqlData(sim, '{ myself { pods { id name } endpoints { id } } }');
		const pods = myself.pods as Array<{id: string; name: string}>;
		const named = pods.find(pod => pods.filter(other => other.name.startsWith(pod.name.slice(0, -1))).length === 1)!;
		const agent = spawn(process.execPath, [cliPath, 'agent', ...service], {env});
		let log = '';
		agent.stderr.setEncoding('utf8');
		agent.stderr.on('data', (text: string) => {
			log += text;
		});
		const requests = async () => {
			const stats = (await sim.call('GET', '/__sim/stats')).body.endpoints as Record<string, Record<string, {requests: number}>>;
			return Object.values(stats)
				.flatMap(Object.values)
				.reduce((sum, {requests}) => sum + requests, 0);
		};

		try {
			await waitFor(() => log.includes('recording history in') && log.includes('serving'), 20_000);
			const line = ['podtop', 'pod', 'stop', ...service];
			const fromAgent = await waitFor(
				async () => {
					const offered = await bashTab(account, [...line, '']);
					return offered.length === pods.length ? offered : undefined;
				},
				20_000,
				200,
			);
			expect(fromAgent.toSorted()).toEqual(pods.map(pod => pod.id).toSorted());
			expect(await bashTab(account, [...line, named.name.slice(0, -1)])).toEqual([named.id]);
			const {stdout} = await runCli(['__complete', 'pod', '', ...service], env);
			expect(stdout).toContain(`${named.id}\t${named.name}`);
			expect(stdout).not.toContain(key);

			// Another account (no agent serves it, nothing recorded): nothing offered.
			expect(await bashTab({...account, env: {...env, RUNPOD_API_KEY: 'rpa_SOMEONEELSE0000111122223333444455'}}, [...line, ''])).toEqual([]);

			agent.kill('SIGTERM');
			await new Promise(resolve => agent.once('close', resolve));
			const before = await requests();
			const fromHistory = await bashTab(account, [...line, '']);
			expect(fromHistory.toSorted()).toEqual(pods.map(pod => pod.id).toSorted());
			expect((await bashTab(account, ['podtop', 'endpoint', 'scale', ...service, ''])).toSorted()).toEqual(
				(myself.endpoints as Array<{id: string}>).map(endpoint => endpoint.id).toSorted(),
			);
			expect(await requests()).toBe(before);
		} finally {
			agent.kill('SIGTERM');
			await sim.close();
		}

		expect(log).not.toContain(key);
	}, 90_000);
});
