import {describe, expect, test} from 'vitest';
import {commandList, subcommandsOf} from '../../source/commands/command-list.js';
import {runCli} from '../helpers/run-cli.js';

/** The `$ podtop …` lines of a help text's Usage section (examples left out). */
const usageLines = (help: string) =>
	/Usage\n((?:[ \t]+\S.*\n)+)/
		.exec(help)?.[1]
		?.split('\n')
		.filter(line => line.includes('$ podtop')) ?? [];

/** `name sub` for each usage line that names a subcommand: a plain word after the command. */
const subcommandsIn = (help: string, name: string) =>
	usageLines(help).flatMap(line => {
		const sub = new RegExp(String.raw`\$ podtop ${name} ([a-z]+)(?:\s|$)`).exec(line)?.[1];
		return sub ? [sub] : [];
	});

const lineFor = (help: string, words: string) => new RegExp(String.raw`^\s+${words.replaceAll(' ', String.raw`\s+`)}(?:\s|$)`, 'm').test(help);

describe('podtop --help', () => {
	test('lists every command and every subcommand, as their own --help says them, one per line', async () => {
		const top = await runCli(['--help']);
		expect(top.code).toBe(0);
		const names = commandList.map(command => command.name);
		expect(names).toEqual(expect.arrayContaining(['job', 'run', 'cancel', 'retry', 'purge', 'pod', 'endpoint', 'snapshot', 'watch', 'agent', 'export', 'sim']));
		const missing: string[] = [];
		const helps = await Promise.all(names.map(async name => ({name, help: await runCli([name, '--help'])})));
		for (const {name, help} of helps) {
			expect(help.code, `${name} --help`).toBe(0);
			const subs = subcommandsIn(help.stdout, name);
			const listed = subcommandsOf(name).map(sub => sub.name);
			expect(listed.toSorted(), `${name}'s subcommands in the list and in its --help`).toEqual([...new Set(subs)].toSorted());
			for (const words of subs.length > 0 ? subs.map(sub => `${name} ${sub}`) : [name]) {
				if (!lineFor(top.stdout, words)) {
					missing.push(words);
				}
			}
		}

		expect(missing, 'commands that podtop --help does not list').toEqual([]);
	});

	test('an unknown command or subcommand names every one there is', async () => {
		const unknown = await runCli(['frobnicate']);
		expect(unknown.code).toBe(2);
		expect(unknown.stderr).toBe(
			`podtop: unknown command "frobnicate"; the commands are ${commandList.map(command => command.name).join(', ')} (see podtop --help)\n`,
		);
		for (const {name} of commandList) {
			const subs = subcommandsOf(name).map(sub => sub.name);
			if (subs.length > 0) {
				const wrong = await runCli([name, 'frobnicate', 'x']);
				expect(wrong.code, name).toBe(2);
				expect(wrong.stderr, name).toBe(`podtop: podtop ${name} takes ${subs.join('|')}, not "frobnicate" (see podtop ${name} --help)\n`);
			}
		}

		// deploy after a flag is not taken for another pod verb (terminate was the fallback).
		const late = await runCli(['pod', '--json', 'deploy', 'x', '--yes']);
		expect(late.code).toBe(2);
		expect(late.stderr).toBe('podtop: usage: podtop pod deploy --gpu-type ID --image IMAGE (see podtop pod --help)\n');
	});
});
