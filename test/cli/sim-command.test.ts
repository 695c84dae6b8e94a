import {spawn, spawnSync} from 'node:child_process';
import {fileURLToPath} from 'node:url';
import {request} from 'undici';
import {describe, expect, test} from 'vitest';

const cli = fileURLToPath(new URL('../../dist/bundle/podtop.js', import.meta.url));

/** Starts `podtop sim`, waits for its banner, stops it with SIGINT: what it printed on stdout and stderr. */
async function simBanner(args: readonly string[], env: NodeJS.ProcessEnv = process.env): Promise<{stdout: string; stderr: string}> {
	const child = spawn(process.execPath, [cli, 'sim', ...args], {stdio: ['ignore', 'pipe', 'pipe'], env});
	let stdout = '';
	let stderr = '';
	child.stdout.setEncoding('utf8');
	child.stderr.setEncoding('utf8');
	child.stderr.on('data', (text: string) => {
		stderr += text;
	});
	await new Promise<void>(resolve => {
		child.stdout.on('data', (text: string) => {
			stdout += text;
			if (stdout.includes('Ctrl-C')) {
				resolve();
			}
		});
	});
	const exited = new Promise(resolve => child.once('exit', resolve));
	child.kill('SIGINT');
	await exited;
	return {stdout, stderr};
}

describe('podtop sim (the built CLI)', () => {
	test('prints its URL and key, serves the job API, and stops cleanly on SIGTERM', async () => {
		const child = spawn(process.execPath, [cli, 'sim', '--port', '0', '--api-key', 'cli-key', '--no-load'], {stdio: ['ignore', 'pipe', 'pipe']});
		let output = '';
		child.stdout.setEncoding('utf8');
		child.stdout.on('data', (text: string) => {
			output += text;
		});
		const url = await new Promise<string>((resolve, reject) => {
			const timer = setTimeout(() => {
				reject(new Error(`no URL printed: ${output}`));
			}, 10_000);
			child.stdout.on('data', () => {
				const match = /listening on (http:\/\/127\.0\.0\.1:\d+)/.exec(output);
				if (match && output.includes('Ctrl-C')) {
					clearTimeout(timer);
					resolve(match[1]!);
				}
			});
		});
		expect(output).toMatch(/api key\s+cli-key/);
		const endpoint = /endpoints (\w{14}) \(/.exec(output)![1];
		const health = await request(`${url}/v2/${endpoint}/health`, {headers: {authorization: 'Bearer cli-key'}});
		expect(health.statusCode).toBe(200);
		expect(await health.body.json()).toHaveProperty('workers.running');

		const exited = new Promise<number | null>(resolve =>
			child.once('exit', code => {
				resolve(code);
			}),
		);
		child.kill('SIGTERM');
		expect(await exited).toBe(0);
		expect(output).toMatch(/simulator stopped/);
	});

	test('a random key is made when none is given', async () => {
		const {stdout} = await simBanner(['--port', '0', '--no-load']);
		expect(stdout).toMatch(/api key\s+rpa_SIM[\dA-F]{36}/);
	});

	test('the key can come from PODTOP_SIM_API_KEY, out of sight of ps; the flag says so', async () => {
		const fromEnv = await simBanner(['--port', '0', '--no-load'], {...process.env, PODTOP_SIM_API_KEY: 'env-sim-key'});
		expect(fromEnv.stdout).toMatch(/api key\s+env-sim-key/);
		expect(fromEnv.stderr).toBe('');
		const fromFlag = await simBanner(['--port', '0', '--no-load', '--api-key', 'flag-key']);
		expect(fromFlag.stderr).toMatch(/--api-key is visible to every user of this machine \(ps\); PODTOP_SIM_API_KEY=KEY keeps it out of sight/);
		const help = spawnSync(process.execPath, [cli, 'sim', '--help'], {encoding: 'utf8'});
		expect(help.stdout).toMatch(/shows in ps to every user of the machine:\s+prefer PODTOP_SIM_API_KEY=KEY/);
	});

	test('--past 30m runs the past first: the banner says what it took and where the observations are; a bad span exits 2', async () => {
		const {stdout} = await simBanner(['--port', '0', '--past', '30m'], {...process.env, PODTOP_SIM_API_KEY: 'past-key'});
		const banner = /past +30m simulated in \d+\.\d s: (\d+) observations \(\d+\.\d MB\) at http:\/\/127\.0\.0\.1:\d+\/__sim\/past/.exec(stdout);
		expect(banner, stdout).not.toBeNull();
		// One every 15 s from 30 minutes ago to now (now moves on while the past runs).
		expect(Number(banner![1])).toBeGreaterThanOrEqual(121);
		for (const [value, message] of [
			['8d', /--past takes a span from 1s to 7d, like 6h, 90m or 1d, got "8d"/],
			['soon', /--past takes a span .* got "soon"/],
		] as const) {
			const bad = spawnSync(process.execPath, [cli, 'sim', '--past', value], {encoding: 'utf8'});
			expect(bad.status).toBe(2);
			expect(bad.stderr).toMatch(message);
		}
	});

	test('--demo-past sets the demo’s simulated past; a bad span exits 2 before anything starts', () => {
		const help = spawnSync(process.execPath, [cli, 'watch', '--help'], {encoding: 'utf8'});
		expect(help.stdout).toMatch(/--demo-past SPAN +How much of its past the demo simulates/);
		const bad = spawnSync(process.execPath, [cli, 'watch', '--demo', '--demo-past', '2 hours'], {encoding: 'utf8', env: {...process.env, CI: ''}});
		expect(bad.status).toBe(2);
		expect(bad.stderr).toMatch(/--demo-past takes a span up to 7d, like 6h or 90m \(0 for none\), got "2 hours"/);
	});

	test('--help documents every flag; bad flags fail with a clear message', () => {
		const help = spawnSync(process.execPath, [cli, 'sim', '--help'], {encoding: 'utf8'});
		expect(help.status).toBe(0);
		for (const flag of [
			'--host',
			'--port',
			'--api-key',
			'--seed',
			'--speed',
			'--rate-limit-scale',
			'--worker-allowance',
			'--endpoints',
			'--no-load',
			'--past',
		]) {
			expect(help.stdout).toContain(flag);
		}

		const top = spawnSync(process.execPath, [cli, '--help'], {encoding: 'utf8'});
		expect(top.status).toBe(0);
		expect(top.stdout).toMatch(/sim\s+Run the local simulator/);

		const bad = spawnSync(process.execPath, [cli, 'sim', '--speed', '0'], {encoding: 'utf8'});
		expect(bad.status).toBe(2);
		expect(bad.stderr).toMatch(/--speed must be a positive number/);

		const typo = spawnSync(process.execPath, [cli, 'sim', '--sped', '2'], {encoding: 'utf8'});
		expect(typo.status).toBe(2);
		expect(typo.stderr).toMatch(/unknown flag --sped for `podtop sim` \(did you mean --speed\?\)/);

		const unknown = spawnSync(process.execPath, [cli, 'frobnicate'], {encoding: 'utf8'});
		expect(unknown.status).toBe(2);
		expect(unknown.stderr).toMatch(/unknown command "frobnicate"/);
	});

	test('a fleet above the documented largest (1,000 endpoints, 10,000 pods) exits 2 with a sentence before anything starts', () => {
		const help = spawnSync(process.execPath, [cli, 'sim', '--help'], {encoding: 'utf8'});
		expect(help.stdout).toMatch(/--endpoints +Number of account endpoints in the fleet,\s+up to 1000 /);
		expect(help.stdout).toMatch(/--pods +Number of pods in the fleet, up to 10000 /);
		for (const [flag, value, largest] of [
			['--endpoints', '1001', '1000'],
			['--endpoints', '1000000', '1000'],
			['--pods', '10001', '10000'],
		] as const) {
			// Without the bound the simulator starts and serves until killed (a signal, no status).
			const refused = spawnSync(process.execPath, [cli, 'sim', '--port', '0', '--no-load', flag, value], {
				encoding: 'utf8',
				timeout: 30_000,
				killSignal: 'SIGINT',
			});
			expect(refused.status, `${flag} ${value}`).toBe(2);
			expect(refused.stderr).toBe(`podtop: ${flag} must be a whole number from 0 to ${largest}, got ${value}\n`);
			expect(refused.stdout).toBe('');
		}
	});
});
