import {describe, expect, test} from 'vitest';
import {commandFlags} from '../../source/commands/command-flags.js';
import {parseCommandLine} from '../../source/commands/parse-command-line.js';
import {UsageError} from '../../source/lib/usage-error.js';

const flags = {
	input: {type: 'string'},
	bid: {type: 'number'},
	env: {type: 'string', isMultiple: true},
	port: {type: 'number', default: 8787},
	json: {type: 'boolean', default: false},
} as const;

const parse = (...argv: string[]) => parseCommandLine('', argv, flags, 'podtop test');
const refusal = (...argv: string[]) => {
	try {
		parse(...argv);
	} catch (error) {
		expect(error).toBeInstanceOf(UsageError);
		return (error as Error).message;
	}

	throw new Error(`${argv.join(' ')} was not refused`);
};

describe('a flag that takes a value takes the next word', () => {
	test('`-` is a value (standard input), as a separate word as after =', () => {
		for (const argv of [
			['x', '--input', '-'],
			['x', '--input=-'],
		]) {
			const {input, flags: parsed} = parse(...argv, '--json');
			expect(input, argv.join(' ')).toEqual(['x']);
			expect(parsed, argv.join(' ')).toMatchObject({input: '-', json: true});
		}

		expect(parse('--env', '-', '--env', 'A=1').flags.env).toEqual(['-', 'A=1']);
	});

	test('negative numbers are values, exponents too', () => {
		expect(parse('--bid', '-1').flags.bid).toBe(-1);
		expect(parse('--bid', '-0.5').flags.bid).toBe(-0.5);
		expect(parse('--bid', '-.5').flags.bid).toBe(-0.5);
		expect(parse('--bid', '-1e3').flags.bid).toBe(-1000);
		expect(parse('--input', '-12').flags.input).toBe('-12');
	});

	test('after -- every word is an argument, even ones that look like flags', () => {
		const {input, flags: parsed} = parse('--input', '{}', '--', '--json', '-');
		expect(input).toEqual(['--json', '-']);
		expect(parsed).toMatchObject({input: '{}', json: false});
	});

	test('a value flag with nothing after it, or a flag after it, is refused with how to write the value', () => {
		expect(refusal('x', '--input')).toBe('--input needs a value; see podtop test --help');
		expect(refusal('--port', '--json')).toBe('--port needs a value, not the flag --json; see podtop test --help');
		expect(refusal('--input', '--')).toMatch(/^--input needs a value/);
		expect(refusal('--input', '-abc')).toBe(
			'--input needs a value, not the flag -abc (write --input=-abc for a value starting with -); see podtop test --help',
		);
	});

	test('a number flag with something else is refused, not read as null or its default', () => {
		expect(refusal('--bid', 'abc')).toBe('--bid takes a number; got "abc"');
		expect(refusal('--bid=')).toBe('--bid takes a number; got ""');
		expect(refusal('--port', '1x')).toBe('--port takes a number; got "1x"');
	});

	test('unknown flags are still refused, values that look like flags are not', () => {
		expect(refusal('--inptu', '-')).toMatch(/^unknown flag --inptu for `podtop test` \(did you mean --input\?\)/);
		expect(parse('--input=--json').flags).toMatchObject({input: '--json', json: false});
	});
});

describe('--write', () => {
	const parseFor = (command: keyof typeof commandFlags, ...argv: string[]) =>
		parseCommandLine('', argv, commandFlags[command], `podtop ${command}`.trim(), {configDefaults: false});

	test('the dashboard and the write verbs take it', () => {
		for (const command of ['', 'job', 'run', 'cancel', 'retry', 'purge', 'pod stop', 'endpoint scale', 'agent'] as const) {
			expect(parseFor(command, '--write').flags, command).toMatchObject({write: true});
		}
	});

	test('a verb that never writes refuses it with why (exit 2), --no-write too; --read-only stays harmless there', () => {
		for (const command of ['snapshot', 'watch', 'export', 'history', 'events', 'doctor'] as const) {
			for (const flag of ['--write', '--no-write']) {
				expect(() => parseFor(command, flag), `${command} ${flag}`).toThrow(
					new UsageError(
						`\`podtop ${command}\` never writes, so --write means nothing to it (it lifts a read-only profile for the dashboard and the write verbs); drop it`,
					),
				);
			}
		}

		expect(parseFor('snapshot', '--read-only').flags).toMatchObject({readOnly: true});
	});
});
