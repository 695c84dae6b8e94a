#!/usr/bin/env node
// `npm start`: builds dist/ when the checkout's sources are newer than the bundle (or it is missing),
// then runs podtop with the arguments given after `--`, as its bin runs it: the Node flags and the environment of
// the bundle's shebang (V8's heap sizes, one malloc arena: in this process, without them, the dashboard at
// 500 endpoints + 2,000 pods took 176 MB rather than 123). The build is not an
// install script (`prepare`), so installing the published package runs nothing: npm 11 warns about
// every install script a global install meets.
import {spawn, spawnSync} from 'node:child_process';
import {readdirSync, readFileSync, statSync} from 'node:fs';
import path from 'node:path';
import {fileURLToPath} from 'node:url';

const root = fileURLToPath(new URL('..', import.meta.url));
const bundle = path.join(root, 'dist', 'bundle', 'podtop.js');

/** The newest modification time under the given files and folders (0 when none exist). */
function newest(paths) {
	let latest = 0;
	for (const entry of paths) {
		let stats;
		try {
			stats = statSync(entry);
		} catch {
			continue;
		}

		latest = Math.max(latest, stats.isDirectory() ? newest(readdirSync(entry).map(name => path.join(entry, name))) : stats.mtimeMs);
	}

	return latest;
}

const inputs = ['source', 'scripts/bundle.js', 'scripts/stubs', 'package.json', 'tsconfig.json', 'tsconfig.build.json'].map(name => path.join(root, name));
const built = newest([bundle]);
if (built === 0 || newest(inputs) > built) {
	process.stderr.write(built === 0 ? 'podtop: building (first run)…\n' : 'podtop: sources changed, building…\n');
	const steps = [
		[path.join(root, 'node_modules', 'typescript', 'bin', 'tsc'), '-p', path.join(root, 'tsconfig.build.json')],
		[path.join(root, 'scripts', 'bundle.js')],
	];
	for (const step of steps) {
		const {status} = spawnSync(process.execPath, step, {stdio: 'inherit', cwd: root});
		if (status !== 0) {
			process.stderr.write('podtop: the build failed (above); run `npm install` first if node_modules is missing\n');
			process.exit(status ?? 1);
		}
	}
}

/** The environment and Node flags of the bundle's shebang (`#!/usr/bin/env -S NAME=value node --flag…`). */
function shebangLaunch(file) {
	const words = readFileSync(file, 'utf8')
		.split('\n', 1)[0]
		.replace(/^#!\S*env -S /, '')
		.split(' ');
	const at = words.indexOf('node');
	return {environment: Object.fromEntries(words.slice(0, at).map(word => word.split('='))), flags: words.slice(at + 1)};
}

// The bundle reads its arguments from process.argv.slice(2): the ones given after `npm start --`.
const {environment, flags} = shebangLaunch(bundle);
const child = spawn(process.execPath, [...flags, bundle, ...process.argv.slice(2)], {stdio: 'inherit', env: {...process.env, ...environment}});
// The terminal sends Ctrl-C's signal to both; a signal sent to this process alone is passed on.
for (const signal of ['SIGINT', 'SIGTERM', 'SIGHUP']) {
	process.on(signal, () => child.kill(signal));
}

child.on('exit', (code, signal) => {
	process.exitCode = code ?? 128 + ({SIGINT: 2, SIGHUP: 1}[signal] ?? 15);
});
