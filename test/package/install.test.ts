import {execFile} from 'node:child_process';
import {mkdtemp, readdir, readFile, rm, stat} from 'node:fs/promises';
import {tmpdir} from 'node:os';
import path from 'node:path';
import {fileURLToPath} from 'node:url';
import {promisify} from 'node:util';
import {afterAll, beforeAll, describe, expect, test} from 'vitest';
import {cliEnv} from '../helpers/run-cli.js';

const run = promisify(execFile);
const root = fileURLToPath(new URL('../../', import.meta.url));
const manifest = JSON.parse(await readFile(path.join(root, 'package.json'), 'utf8')) as {version: string; dependencies?: Record<string, string>};

/** What podtop's own files may weigh installed: 3.6 MB with workers, logs and spend (undici 8 alone is 970 kB of it, 240 more than undici 7). */
const maxOwnBytes = 3_800_000;
/** How many packages an install may bring: none today; a native binding brings itself, its platform's binary and a helper or two. */
const maxPackages = 8;

type Packed = {filename: string; size: number; unpackedSize: number; entryCount: number; files: Array<{path: string}>};

let directory: string;
let packed: Packed;

/** Every file under `directory` (not following links): its path relative to `directory` and its size. */
async function walk(directory: string, prefix = ''): Promise<Array<{path: string; size: number}>> {
	const entries = await readdir(path.join(directory, prefix), {withFileTypes: true});
	const nested = await Promise.all(
		entries.map(async entry => {
			const relative = path.join(prefix, entry.name);
			return entry.isDirectory() ? walk(directory, relative) : [{path: relative, size: (await stat(path.join(directory, relative))).size}];
		}),
	);
	return nested.flat();
}

/** The packages under a node_modules folder, nested ones included. */
function installedPackages(files: ReadonlyArray<{path: string}>): string[] {
	return files.flatMap(({path: file}) => /(?:^|\/)node_modules\/((?:@[^/]+\/)?[^/]+)\/package\.json$/.exec(file)?.[1] ?? []);
}

/** The packages the lockfile says a production install gets (not dev-only). */
async function runtimePackages(): Promise<Set<string>> {
	const lock = JSON.parse(await readFile(path.join(root, 'package-lock.json'), 'utf8')) as {packages: Record<string, {dev?: boolean}>};
	return new Set(
		Object.entries(lock.packages)
			.filter(([key, entry]) => key !== '' && !entry.dev)
			.map(([key]) => key.replace(/^.*node_modules\//, '')),
	);
}

beforeAll(async () => {
	directory = await mkdtemp(path.join(tmpdir(), 'podtop-package-'));
});

afterAll(async () => {
	await rm(directory, {recursive: true, force: true});
});

// `npm test` has just built dist/ (the package has no install script: `npm start` builds a checkout).
describe('the published package (npm pack, then npm install -g from the tarball)', () => {
	test('packs the bundle, the readme and the Grafana dashboard, nothing else', async () => {
		const {stdout} = await run('npm', ['pack', '--json', '--ignore-scripts', '--pack-destination', directory], {cwd: root, timeout: 25_000});
		packed = JSON.parse(stdout)[0] as Packed;
		const files = packed.files.map(file => file.path);
		expect(files.filter(file => !/^(?:package\.json|readme\.md|media\/grafana-dashboard\.json|dist\/bundle\/[\w-]+\.js)$/.test(file))).toEqual([]);
		expect(files).toContain('dist/bundle/podtop.js');
		expect(files).toContain('media/grafana-dashboard.json');
		expect(packed.unpackedSize).toBeLessThan(maxOwnBytes);
	}, 30_000);

	test('installs into a fresh prefix with no package but the runtime dependencies, from the cache', async () => {
		const prefix = path.join(directory, 'prefix');
		// Nothing to fetch today. A dependency's tarballs are in the cache `npm install` of the checkout
		// warmed; npm asks the registry for what the cache lacks (a global install wants the full
		// metadata document, where a lockfile install keeps the abbreviated one).
		const installed = await run(
			'npm',
			['install', '--global', '--prefix', prefix, '--prefer-offline', '--no-audit', '--no-fund', '--no-update-notifier', path.join(directory, packed.filename)],
			{
				cwd: directory,
				timeout: 55_000,
			},
		);
		// Nothing runs at install, so npm has no install script to warn about.
		expect(installed.stderr).not.toMatch(/install-scripts|podtop@[\d.]+ \(/);
		const files = await walk(path.join(prefix, 'lib', 'node_modules', 'podtop'));
		const own = files.filter(file => !file.path.startsWith('node_modules/'));
		expect(own.reduce((sum, file) => sum + file.size, 0)).toBeLessThan(maxOwnBytes);
		const packages = installedPackages(files);
		const runtime = await runtimePackages();
		expect(packages.filter(name => !runtime.has(name))).toEqual([]);
		expect(packages.length).toBeLessThanOrEqual(maxPackages);
		expect(Object.keys(manifest.dependencies ?? {}).filter(name => !packages.includes(name))).toEqual([]);
	}, 60_000);

	test('the installed podtop prints its version and a demo snapshot', async () => {
		const bin = path.join(directory, 'prefix', 'bin', 'podtop');
		// The shebang asks env for `node`: the one running these tests.
		const env = cliEnv({PATH: `${path.dirname(process.execPath)}${path.delimiter}${process.env.PATH ?? ''}`});
		const version = await run(bin, ['--version'], {env, timeout: 20_000});
		expect(version.stdout.trim()).toBe(manifest.version);
		const snapshot = await run(bin, ['snapshot', '--demo'], {env, timeout: 20_000});
		expect(snapshot.stdout).toMatch(/^DEMO \(built-in simulator\)/);
		for (const heading of ['ENDPOINT', 'POD', 'GPU TYPE', 'llama-3-8b-instruct-vllm']) {
			expect(snapshot.stdout).toContain(heading);
		}

		expect(snapshot.stderr).toBe('');
	}, 45_000);
});
