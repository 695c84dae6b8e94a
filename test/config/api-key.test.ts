import {chmodSync, mkdtempSync, writeFileSync} from 'node:fs';
import {tmpdir} from 'node:os';
import path from 'node:path';
import {describe, expect, test} from 'vitest';
import {findApiKey, profileNames} from '../../source/config/api-key.js';
import {parseConfigToml} from '../../source/config/toml.js';
import {keyCheck} from '../../source/doctor/local-checks.js';
import {resolveTarget} from '../../source/engine/resolve-target.js';
import {UsageError} from '../../source/lib/usage-error.js';

function configFile(text: string, mode = 0o600): string {
	const file = path.join(mkdtempSync(path.join(tmpdir(), 'podtop-config-')), 'config.toml');
	writeFileSync(file, text);
	chmodSync(file, mode);
	return file;
}

describe('~/.runpod/config.toml', () => {
	test("reads runpod-python profiles and runpodctl's top-level apikey", () => {
		expect(parseConfigToml('apikey = "top"\n# comment\n[default]\napi_key = "python-default"\n\n[work]\napi_key = \'python-work\' # trailing\n')).toEqual({
			sections: {
				'': {apikey: 'top'},
				default: {api_key: 'python-default'},
				work: {api_key: 'python-work'},
			},
		});
	});

	test("RUNPOD_API_KEY wins, then the profile, then runpodctl's key", () => {
		const both = configFile('apikey = "ctl-key"\n[default]\napi_key = "py-default"\n[work]\napi_key = "py-work"\n');
		expect(findApiKey({env: {RUNPOD_API_KEY: 'env-key'}, configPath: both}).apiKey).toBe('env-key');
		expect(findApiKey({env: {}, configPath: both}).apiKey).toBe('py-default');
		expect(findApiKey({env: {}, configPath: both, profile: 'work'}).apiKey).toBe('py-work');
		expect(findApiKey({env: {}, configPath: configFile('apikey = "ctl-key"\n')}).apiKey).toBe('ctl-key');
		expect(findApiKey({env: {}, configPath: '/nonexistent/config.toml'}).apiKey).toBeUndefined();
	});

	test('a profile named uses its own key: RUNPOD_API_KEY applies only when none is named', () => {
		const file = configFile('apikey = "ctl-key"\n[default]\napi_key = "py-default"\n[work]\napi_key = "py-work"\n');
		const env = {RUNPOD_API_KEY: 'env-key'};
		expect(findApiKey({env, configPath: file, profile: 'work'})).toMatchObject({apiKey: 'py-work', origin: `${file} [work]`});
		expect(findApiKey({env, configPath: file, profile: 'default'})).toMatchObject({apiKey: 'py-default', origin: `${file} [default]`});
		expect(findApiKey({env, configPath: file})).toMatchObject({apiKey: 'env-key', origin: 'RUNPOD_API_KEY'});
		// A profile the file lacks is no key, never the environment's.
		expect(findApiKey({env, configPath: file, profile: 'missing'}).apiKey).toBeUndefined();
		expect(() => resolveTarget({env, configPath: file, profile: 'missing'})).toThrow(/no API key for profile "missing"/);
		expect(resolveTarget({env, configPath: file, profile: 'work'})).toMatchObject({mode: 'live', apiKey: 'py-work'});
		// Doctor's "where the key was found" says the same, and that the environment's key is not the one used.
		expect(keyCheck(env, file, 'work').found).toBe(`from ${file} [work] (7 characters; RUNPOD_API_KEY is set but not used: --profile names its own key)`);
		expect(keyCheck(env, file, undefined).found).toBe('from RUNPOD_API_KEY (7 characters)');
		const broken = configFile('[work]\napi_key = "unterminated\n');
		expect(findApiKey({env, configPath: broken, profile: 'work'}).configError).toMatch(/does not parse at line 2.*profile "work" is read from it/);
	});

	test('a file that does not parse says where and that RUNPOD_API_KEY overrides it, never quoting the file', () => {
		const broken = configFile('[default]\napi_key = "rpa_SECRETSECRET\nmore = 1\n');
		const found = findApiKey({env: {}, configPath: broken});
		expect(found.apiKey).toBeUndefined();
		expect(found.configError).toMatch(/config\.toml does not parse at line 2, column \d+: .+\. Fix it, or set RUNPOD_API_KEY \(it overrides the file\)\./);
		expect(found.configError).not.toContain('SECRET');
		expect(findApiKey({env: {RUNPOD_API_KEY: 'env-key'}, configPath: broken}).apiKey).toBe('env-key');
	});

	test('a config file others can read gets a warning', () => {
		const open = configFile('apikey = "k"\n', 0o644);
		expect(findApiKey({env: {}, configPath: open}).warnings[0]).toMatch(/can be read by other users; run: chmod 600/);
		expect(findApiKey({env: {}, configPath: configFile('apikey = "k"\n')}).warnings).toEqual([]);
	});
});

describe('resolveTarget', () => {
	test('no key: DEMO, with a notice; --demo forces it', () => {
		expect(resolveTarget({env: {}, configPath: '/nonexistent'})).toMatchObject({mode: 'demo', warnings: [expect.stringMatching(/DEMO/)]});
		expect(resolveTarget({env: {RUNPOD_API_KEY: 'k'}, demo: true}).mode).toBe('demo');
	});

	test('a key: LIVE against the real service by default', () => {
		expect(resolveTarget({env: {RUNPOD_API_KEY: 'k'}})).toMatchObject({
			mode: 'live',
			apiUrl: 'https://api.runpod.ai/v2',
			graphqlUrl: 'https://api.runpod.io/graphql',
		});
	});

	test('the header can always name the account: the profile, else env or the file', () => {
		const file = configFile('apikey = "top"\n[default]\napi_key = "d"\n[lab]\napi_key = "l"\n');
		expect(resolveTarget({env: {RUNPOD_API_KEY: 'k'}, configPath: file})).toMatchObject({keyLabel: 'env'});
		expect(resolveTarget({env: {}, configPath: file})).toMatchObject({keyLabel: 'default'});
		expect(resolveTarget({env: {RUNPOD_API_KEY: 'k'}, configPath: file, profile: 'lab'})).toMatchObject({keyLabel: 'lab', apiKey: 'l'});
		expect(resolveTarget({env: {}, configPath: configFile('apikey = "top"\n')})).toMatchObject({keyLabel: 'config', apiKey: 'top'});
	});

	test("a profile's section may say where its account is (api_url, graphql_url); a flag wins, the environment's key takes none", () => {
		const file = configFile(
			'[default]\napi_key = "d"\n[lab]\napi_key = "l"\napi_url = "http://127.0.0.1:9/v2/"\ngraphql_url = "http://127.0.0.1:9/graphql"\n[bad]\napi_key = "b"\napi_url = "ftp://x"\n',
		);
		expect(resolveTarget({env: {}, configPath: file, profile: 'lab'})).toMatchObject({
			apiUrl: 'http://127.0.0.1:9/v2',
			graphqlUrl: 'http://127.0.0.1:9/graphql',
		});
		expect(resolveTarget({env: {}, configPath: file, profile: 'lab', apiUrl: 'https://example.com/v2'})).toMatchObject({
			apiUrl: 'https://example.com/v2',
			graphqlUrl: 'http://127.0.0.1:9/graphql',
		});
		expect(resolveTarget({env: {}, configPath: file, profile: 'default'})).toMatchObject({apiUrl: 'https://api.runpod.ai/v2'});
		expect(() => resolveTarget({env: {}, configPath: file, profile: 'bad'})).toThrow(new UsageError(`api_url of ${file} [bad] must be http or https`));
		expect(profileNames(file)).toEqual(['default', 'lab', 'bad']);
		expect(profileNames('/nonexistent/config.toml')).toEqual([]);
	});

	test('URLs are checked and may not carry credentials', () => {
		expect(() => resolveTarget({env: {RUNPOD_API_KEY: 'k'}, apiUrl: 'not a url'})).toThrow(/not a URL/);
		expect(() => resolveTarget({env: {RUNPOD_API_KEY: 'k'}, graphqlUrl: 'https://x/graphql?api_key=secret'})).toThrow(/must not carry credentials/);
		expect(() => resolveTarget({env: {}, configPath: '/nonexistent', apiUrl: 'https://example.com/v2'})).toThrow(/no API key/);
		expect(() => resolveTarget({env: {}, configPath: '/nonexistent', profile: 'work'})).toThrow(/profile "work"/);
	});
});
