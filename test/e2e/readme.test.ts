import {mkdtempSync, readFileSync, rmSync} from 'node:fs';
import {tmpdir} from 'node:os';
import path from 'node:path';
import {afterAll, beforeAll, describe, expect, test} from 'vitest';
import {fences, readmeCommands, type ReadmeCommand} from '../helpers/readme-commands.js';
import {notRun, repoRoot, runSteps} from '../helpers/readme-runner.js';
import {startTestSim} from '../helpers/sim-client.js';
import {fleetOf, type Fleet} from './readme-fleet.js';
import {steps} from './readme-steps.js';

/*
The readme's ```sh fences, run: each command against a simulator this test starts, its placeholders
filled from the simulator's own fleet, writes with --dry-run where the verb has it (otherwise for
real: it is a simulator), long-running ones started and stopped once they show they work. What
each must do, and what is not run and why, is the table in readme-steps.ts.
*/

const readme = readFileSync(path.join(repoRoot, 'readme.md'), 'utf8');
const stepOf = (command: ReadmeCommand) => steps.filter(step => step.match.test(command.text));
const commands = readmeCommands(readme);
const problems = new Map<ReadmeCommand, Promise<string[]>>();
let fleet: Fleet;
const scratch = mkdtempSync(path.join(tmpdir(), 'podtop-readme-'));

describe('the readme', () => {
	test('every code fence opens and closes on a line of its own', () => {
		const fenceLines = readme.split('\n').filter(line => line.startsWith('```'));
		expect(fenceLines.filter(line => !/^```[a-z]*$/.test(line))).toEqual([]);
		expect(fences(readme).some(({body}) => body.includes('```'))).toBe(false);
	});

	test('every command of its ```sh fences has exactly one step here, and every step a command', () => {
		expect(commands.filter(command => stepOf(command).length !== 1).map(command => command.text)).toEqual([]);
		expect(steps.filter(step => !commands.some(command => step.match.test(command.text))).map(step => String(step.match))).toEqual([]);
	});
});

describe('every command of the readme runs as written, against a simulator', () => {
	beforeAll(async () => {
		// Every command of the readme, one after another on one key: the account's v2 quota is roomy (as GraphQL's rate is), not the
		// 60 a minute sixty commands would share, each starting afresh.
		fleet = await fleetOf(
			await startTestSim({apiKey: 'rpa_README0000111122223333444455556666', graphqlRate: 100, restQuota: {minute: 10_000, hour: 100_000, day: 1_000_000}}),
		);
		const running = fleet.sim;
		const urls = ['--api-url', `${running.url}/v2`, '--graphql-url', `${running.url}/graphql`];
		for (const [command, outcome] of runSteps(commands, {steps, fleet, key: running.apiKey, urls, scratch})) {
			problems.set(command, outcome);
		}
	});

	afterAll(async () => {
		await Promise.allSettled(problems.values());
		await fleet?.sim.close();
		rmSync(scratch, {recursive: true, force: true});
	});

	for (const command of commands) {
		const [step] = stepOf(command);
		const name = `${command.text}${step?.why ? ` (${step.why})` : ''}`;
		const reason = step && notRun(step, command);
		if (reason) {
			test.skip(`${name}: not run, ${reason}`, () => {});
		} else {
			test(
				name,
				async () => {
					expect(await problems.get(command)).toEqual([]);
				},
				60_000,
			);
		}
	}
});
