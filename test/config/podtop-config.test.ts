import {mkdirSync, mkdtempSync, readFileSync, writeFileSync} from 'node:fs';
import {tmpdir} from 'node:os';
import path from 'node:path';
import {describe, expect, test} from 'vitest';
import {readPodtopConfig} from '../../source/commands/config-defaults.js';
import {commandFlags} from '../../source/commands/command-flags.js';
import {readConnectionFlags} from '../../source/commands/connection-flags.js';
import {parseCommandLine, withProfile} from '../../source/commands/parse-command-line.js';
import {defaultPodtopConfigPath, parsePodtopConfig, sessionProfile, sessionSettings} from '../../source/config/podtop-config.js';
import {UsageError} from '../../source/lib/usage-error.js';

const file = '/home/u/.config/podtop/config.toml';

/** A config home holding `podtop/config.toml` with this text, as the environment that names it. */
function configHome(text: string): NodeJS.ProcessEnv {
	const home = mkdtempSync(path.join(tmpdir(), 'podtop-xdg-'));
	mkdirSync(path.join(home, 'podtop'));
	writeFileSync(path.join(home, 'podtop', 'config.toml'), text);
	return {XDG_CONFIG_HOME: home, HOME: '/nonexistent-podtop-home'};
}

const good = `
bell = false
ascii = true
budget = 0.2

[profile.prod]
read-only = true
color = "red"
budget = 0.05

[profile.lab]
color = "#33aa77"
agent = false
`;

describe('~/.config/podtop/config.toml', () => {
	test('is found under XDG_CONFIG_HOME, else ~/.config', () => {
		expect(defaultPodtopConfigPath({XDG_CONFIG_HOME: '/x'})).toBe('/x/podtop/config.toml');
		expect(defaultPodtopConfigPath({HOME: '/home/u'})).toBe('/home/u/.config/podtop/config.toml');
		// A relative XDG_CONFIG_HOME is ignored, as the spec says.
		expect(defaultPodtopConfigPath({XDG_CONFIG_HOME: 'rel', HOME: '/home/u'})).toBe('/home/u/.config/podtop/config.toml');
	});

	test('a good file: top-level defaults, and each profile over them', () => {
		const config = parsePodtopConfig(good, file);
		expect(config).toEqual({
			defaults: {bell: false, ascii: true, budget: 0.2},
			profiles: {prod: {readOnly: true, band: 'red', budget: 0.05}, lab: {band: '#33aa77', agent: false}},
			images: {allow: []},
		});
		expect(sessionSettings(config, 'prod')).toEqual({bell: false, ascii: true, budget: 0.05, readOnly: true, band: 'red'});
		expect(sessionSettings(config, 'lab')).toEqual({bell: false, ascii: true, budget: 0.2, band: '#33aa77', agent: false});
		expect(sessionSettings(config, 'elsewhere')).toEqual({bell: false, ascii: true, budget: 0.2});
		// No --profile: the `default` section, when there is one.
		expect(sessionProfile(config, undefined)).toBeUndefined();
		expect(sessionProfile(parsePodtopConfig('[profile.default]\nread-only = true\n', file), undefined)).toBe('default');
		expect(parsePodtopConfig('', file)).toEqual({defaults: {}, profiles: {}, images: {allow: []}});
	});

	test("the readme's example is a good file", () => {
		const readme = readFileSync(new URL('../../readme.md', import.meta.url), 'utf8');
		const example = /### Profiles[\s\S]*?```toml\n([\s\S]*?)```/.exec(readme)?.[1];
		expect(example).toBeDefined();
		expect(sessionSettings(parsePodtopConfig(example!, file), 'prod')).toEqual({bell: false, budget: 0.05, v2Budget: 0.5, readOnly: true, band: 'red'});
	});

	test('bad TOML says the file, the line and the column', () => {
		expect(() => parsePodtopConfig('bell = false\n[profile.prod]\nread-only = yes\n', file)).toThrow(
			/^\/home\/u\/\.config\/podtop\/config\.toml does not parse at line 3, column 13: /,
		);
	});

	test('an unknown key is named with the file (and its section), and the keys there are listed', () => {
		expect(() => parsePodtopConfig('colour = false\n', file)).toThrow(
			`${file}: unknown key "colour"; the keys are bell, ascii, color, budget, v2-budget, agent, profile`,
		);
		expect(() => parsePodtopConfig('[profile.prod]\nreadonly = true\n', file)).toThrow(`${file} [profile.prod]: unknown key "readonly"`);
	});

	test('a value of the wrong kind says what it must be', () => {
		expect(() => parsePodtopConfig('budget = 5\n', file)).toThrow(/budget must be a share between 0 and 1/);
		expect(() => parsePodtopConfig('[profile.prod]\nv2-budget = 0\n', file)).toThrow(/v2-budget must be a share between 0 and 1/);
		expect(() => parsePodtopConfig('bell = "no"\n', file)).toThrow(/bell must be true or false/);
		expect(() => parsePodtopConfig('[profile.prod]\ncolor = "scarlet"\n', file)).toThrow(/color must be one of red, green, .* or "#rrggbb", got "scarlet"/);
		expect(() => parsePodtopConfig('profile = 1\n', file)).toThrow(/profile must be a table of sections, written \[profile.NAME]/);
	});

	test('[images] allow: addresses, CIDR ranges and host names image links may lead to; anything else is named', () => {
		const allow = ['127.0.0.1', '10.0.0.0/8', 'fd00::/8', '::1', 'images.corp.example', 'nas'];
		expect(parsePodtopConfig(`[images]\nallow = ${JSON.stringify(allow)}\n`, file).images).toEqual({allow});
		const readme = readFileSync(new URL('../../readme.md', import.meta.url), 'utf8');
		const example = /```toml\n(\[images][\s\S]*?)```/.exec(readme)?.[1];
		expect(parsePodtopConfig(example!, file).images.allow).toContain('10.20.0.0/16');
		expect(() => parsePodtopConfig('[images]\nallow = "10.0.0.0/8"\n', file)).toThrow(
			`${file} [images]: allow must be a list of addresses, CIDR ranges and host names, for example ["10.0.0.0/8", "images.corp.example"]`,
		);
		expect(() => parsePodtopConfig('[images]\nallow = ["10.0.0.0/33"]\n', file)).toThrow(
			`${file} [images]: allow: "10.0.0.0/33" is not a CIDR range (10.0.0.0/8, fd00::/8)`,
		);
		expect(() => parsePodtopConfig('[images]\nallow = ["http://x/"]\n', file)).toThrow(
			`${file} [images]: allow: "http://x/" is not an address, a CIDR range or a host name`,
		);
		expect(() => parsePodtopConfig('[images]\nallow_private = true\n', file)).toThrow(`${file} [images]: unknown key "allow_private"; the key is allow`);
		expect(() => parsePodtopConfig('images = 1\n', file)).toThrow(`${file}: images must be a section, written [images]`);
	});

	test('through the commands: a file that cannot be used is a usage error (exit 2); no file is no settings', () => {
		expect(() => readPodtopConfig(configHome('nope = 1\n'))).toThrow(UsageError);
		expect(readPodtopConfig({XDG_CONFIG_HOME: '/nonexistent-podtop-xdg'})).toEqual({defaults: {}, profiles: {}, images: {allow: []}});
	});
});

describe('the file under the flags', () => {
	const parse = (argv: string[], env: NodeJS.ProcessEnv) => parseCommandLine('help', argv, commandFlags[''], 'podtop', {env}).flags;

	test("the file's defaults and the profile's section become the flags' defaults", () => {
		const env = configHome(good);
		expect(parse([], env)).toMatchObject({bell: false, ascii: true, budget: 0.2, color: true, agent: true});
		expect(parse(['--profile', 'prod'], env)).toMatchObject({bell: false, ascii: true, budget: 0.05});
		expect(parse(['--profile', 'lab'], env)).toMatchObject({agent: false});
	});

	test('a flag given on the command line beats the file', () => {
		const env = configHome(good);
		expect(parse(['--profile', 'prod', '--budget', '0.3', '--bell', '--no-ascii'], env)).toMatchObject({bell: true, ascii: false, budget: 0.3});
		expect(parse(['--profile', 'lab', '--agent'], env)).toMatchObject({agent: true});
		expect(parse(['--no-color'], configHome('color = true\n'))).toMatchObject({color: false});
		expect(parse(['--color'], configHome('color = false\n'))).toMatchObject({color: true});
	});

	test('commands without --profile do not read the file', () => {
		const env = configHome('this is not TOML');
		expect(() => parse([], env)).toThrow(/does not parse at line 1/);
		expect(parseCommandLine('help', ['--port', '1'], commandFlags.sim, 'podtop sim', {env}).flags.port).toBe(1);
	});

	test("v2's share of each window: half by default, the file's v2-budget (its profile's over its defaults), and --v2-budget over both", () => {
		const env = configHome('v2-budget = 0.4\n[profile.prod]\nv2-budget = 0.25\n');
		const connection = (argv: string[]) => readConnectionFlags(parseCommandLine('help', argv, commandFlags.cancel, 'podtop cancel', {env}).flags, env);
		const bare = {XDG_CONFIG_HOME: '/nonexistent-podtop-xdg'};
		expect(readConnectionFlags(parseCommandLine('help', [], commandFlags.cancel, 'podtop cancel', {env: bare}).flags, bare).budget).toEqual({
			share: 0.1,
			serviceShare: 0.5,
		});
		expect(connection([]).budget).toEqual({share: 0.1, serviceShare: 0.4});
		expect(connection(['--profile', 'prod']).budget).toEqual({share: 0.1, serviceShare: 0.25});
		expect(connection(['--profile', 'prod', '--v2-budget', '1']).budget).toEqual({share: 0.1, serviceShare: 1});
		expect(() => connection(['--v2-budget', '1.5'])).toThrow(/--v2-budget must be a share between 0 and 1, got 1.5/);
	});

	test('a read-only profile opens read-only, naming the profile and --write; --write lifts it; --read-only always holds', () => {
		const env = configHome(good);
		const connection = (argv: string[], extra: NodeJS.ProcessEnv = {}) =>
			readConnectionFlags(parseCommandLine('help', argv, commandFlags.cancel, 'podtop cancel', {env}).flags, {...env, ...extra});
		expect(connection(['--profile', 'prod'])).toMatchObject({
			readOnly: true,
			readOnlyReason: 'profile "prod" is read-only; add --write to write',
			profile: 'prod',
			band: 'red',
			budget: {share: 0.05},
		});
		expect(connection(['--profile', 'prod', '--write'])).toMatchObject({readOnly: false, readOnlyReason: undefined, profile: 'prod'});
		expect(connection(['--profile', 'lab'])).toMatchObject({readOnly: false, profile: 'lab', band: '#33aa77'});
		expect(connection(['--read-only'])).toMatchObject({readOnly: true, readOnlyReason: undefined, profile: undefined});
		expect(() => connection(['--profile', 'prod', '--write', '--read-only'])).toThrow(/--write and --read-only say opposite things/);
		expect(() => connection(['--write'], {PODTOP_READ_ONLY: '1'})).toThrow(/--write and PODTOP_READ_ONLY say opposite things/);
	});

	test(":profile NAME opens what the command line with --profile NAME would: that profile's rule, band and budget, every other flag as given", () => {
		const env = configHome(good);
		const flags = commandFlags[''];
		const switched = (argv: string[], name: string) => {
			const changed = withProfile(argv, flags, 'podtop', name);
			return {argv: changed, connection: readConnectionFlags(parseCommandLine('help', changed, flags, 'podtop', {env}).flags, env)};
		};

		expect(switched(['--profile', 'lab', '--endpoints', 'a,b', '--', 'x'], 'prod').argv).toEqual(['--endpoints=a,b', '--profile=prod', '--', 'x']);
		expect(switched(['--profile=lab'], 'prod').connection).toMatchObject({
			readOnly: true,
			readOnlyReason: 'profile "prod" is read-only; add --write to write',
			profile: 'prod',
			band: 'red',
			budget: {share: 0.05},
			target: {profile: 'prod'},
		});
		// --write and --budget given at start keep applying; the endpoints too.
		expect(switched(['--write', '--budget', '0.3', '--endpoints', 'a'], 'prod').connection).toMatchObject({
			readOnly: false,
			profile: 'prod',
			budget: {share: 0.3},
			endpointFilter: ['a'],
		});
		expect(switched(['--profile', 'prod'], 'lab').connection).toMatchObject({readOnly: false, profile: 'lab', band: '#33aa77', budget: {share: 0.2}});
	});
});
