import {spawn} from 'node:child_process';
import {existsSync, mkdtempSync, readFileSync, writeFileSync} from 'node:fs';
import {tmpdir} from 'node:os';
import {join} from 'node:path';
import {afterAll, beforeAll, describe, expect, test} from 'vitest';
import {cliEnv, cliPath, collect, runCli} from '../helpers/run-cli.js';
import {startTestSim, waitFor, type TestSim} from '../helpers/sim-client.js';
import {hasTmux, TmuxSession} from '../helpers/tmux.js';

const key = 'rpa_ALERTSCLISECRET000011112222333';
const directory = mkdtempSync(join(tmpdir(), 'podtop-alerts-'));
let sim: TestSim;
let service: string[];
const rulesFile = (name: string, text: string) => {
	const file = join(directory, name);
	writeFileSync(file, text);
	return file;
};

beforeAll(async () => {
	// A quota as roomy as the other suites' GraphQL rate: v2's budget spreads podtop's requests over what the service allows.
	sim = await startTestSim({apiKey: key, restQuota: {minute: 10_000, hour: 100_000, day: 1_000_000}});
	service = ['--api-url', `${sim.url}/v2`, '--graphql-url', `${sim.url}/graphql`, '--no-agent'];
});

afterAll(async () => sim.close());

// The simulator's market has GPU types at Low and out of stock from the start.
const stockRule = '[[rule]]\nname = "stock going"\nkind = "gpu-stock"\nat = "Low"\n';

describe('alerts on the command line', () => {
	test('watch --jsonl: a firing rule is an alert event', async () => {
		const child = spawn(process.execPath, [cliPath, 'watch', '--alerts', rulesFile('stock.toml', stockRule), ...service], {env: cliEnv({RUNPOD_API_KEY: key})});
		setTimeout(() => child.kill('SIGINT'), 5000);
		const {code, stdout, stderr} = await collect(child, 20_000);
		expect(stderr).toBe('');
		expect(code).toBe(0);
		const alerts = stdout
			.trim()
			.split('\n')
			.map(line => JSON.parse(line))
			.filter(event => event.type === 'alert');
		expect(alerts.length).toBeGreaterThan(0);
		expect(alerts[0]).toMatchObject({state: 'firing', rule: 'stock going', kind: 'gpu-stock', message: expect.stringMatching(/^(stock Low|out of stock)$/)});
	}, 30_000);

	test('a broken rules file stops the command with exit 2 and says where; a missing one named by --alerts too', async () => {
		const broken = await runCli(
			['watch', '--alerts', rulesFile('broken.toml', '[[rule]]\nkind = "queue"\nover = = 1\n'), ...service],
			cliEnv({RUNPOD_API_KEY: key}),
		);
		expect(broken.code).toBe(2);
		expect(broken.stderr).toMatch(/broken\.toml does not parse at line 3, column \d+/);
		expect(broken.stdout).toBe('');
		const wrong = await runCli(
			['agent', '--alerts', rulesFile('wrong.toml', '[[rule]]\nkind = "queue"\nover = 1\nfor = "a while"\n'), ...service],
			cliEnv({RUNPOD_API_KEY: key}),
		);
		expect(wrong.code).toBe(2);
		expect(wrong.stderr).toContain('wrong.toml line 1 (rule 1): for must be a duration like "90s", "5m" or "1h"');
		const missing = await runCli(['--alerts', join(directory, 'nope.toml'), ...service], cliEnv({RUNPOD_API_KEY: key}));
		expect(missing.code).toBe(2);
		expect(missing.stderr).toContain('cannot read the alert rules');
	});

	test.skipIf(!hasTmux)(
		'the dashboard shows an ALERT banner and rings the bell (not with --no-bell); the frame still fits',
		async () => {
			const file = rulesFile('dashboard.toml', stockRule);
			for (const bell of [true, false]) {
				const raw = join(directory, `raw-${bell}.txt`);
				const tmux = new TmuxSession(100, 24, ['--alerts', file, ...(bell ? [] : ['--no-bell']), ...service], {RUNPOD_API_KEY: key});
				try {
					tmux.recordTo(raw);
					const screen = await tmux.waitFor(/ALERT stock going │ .*: (stock Low|out of stock)/);
					// One more banner line, and the frame still fits: the header at the top, the footer on screen.
					expect(screen.split('\n')[0]).toMatch(/^podtop {2}LIVE/);
					expect(screen).toContain('q quit');
					expect(screen).toMatch(/more firing/);
					await waitFor(() => existsSync(raw));
					expect(readFileSync(raw, 'latin1').includes('\u0007')).toBe(bell);
				} finally {
					tmux.close();
				}
			}
		},
		60_000,
	);
});
