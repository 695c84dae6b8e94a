#!/usr/bin/env node
// Runs the whole suite (vitest) and ends with one plain line: "N passed, N failed[, N skipped]".
// Says what it is doing as each step starts: the build, type-check and lint take minutes before the first test.
import {spawn, spawnSync} from 'node:child_process';
import {readFileSync, rmSync} from 'node:fs';
import {fileURLToPath} from 'node:url';

const root = fileURLToPath(new URL('..', import.meta.url));
const results = `${root}.vitest-results.json`;
rmSync(results, {force: true});

/** Runs a Node script of the checkout on this Node (24 under npm), its output passed through; resolves with its exit status. */
async function run(label, args) {
	const started = Date.now();
	console.log(`podtop test: ${label}…`);
	const child = spawn(process.execPath, args, {stdio: 'inherit', cwd: root});
	const status = await new Promise(resolve => {
		child.once('close', code => resolve(code ?? 1));
	});
	console.log(`podtop test: ${label} ${status === 0 ? 'done' : 'FAILED'} (${((Date.now() - started) / 1000).toFixed(0)} s)`);
	return status;
}

console.log(`podtop test: Node ${process.versions.node} (${process.execPath})`);
// Build dist/ and the bundle (the terminal tests run the real CLI), then type-check and lint everything, tests included.
// Type-check and lint read only the sources and each keeps one core busy, so they run side by side (on two cores, the shorter's time is saved when the machine is otherwise idle).
const tsc = `${root}node_modules/typescript/bin/tsc`;
let failed = (await run('building', [tsc, '-p', `${root}tsconfig.build.json`])) !== 0 || (await run('bundling', [`${root}scripts/bundle.js`])) !== 0;
if (!failed) {
	const statuses = await Promise.all([
		run('type-checking', [tsc, '--noEmit', '-p', `${root}tsconfig.json`]),
		// `npm run lint`: xo (ESLint with prettier) over source, tests and scripts.
		run('linting', [`${root}node_modules/xo/dist/cli.js`]),
	]);
	failed = statuses.some(status => status !== 0);
}

if (failed) {
	console.log('0 passed, 1 failed');
	process.exit(1);
}

console.log('podtop test: running tests…');
const vitest = spawn(
	process.execPath,
	[`${root}node_modules/vitest/vitest.mjs`, 'run', '--reporter=default', '--reporter=json', `--outputFile.json=${results}`, ...process.argv.slice(2)],
	{stdio: 'inherit', cwd: root},
);
const vitestStatus = await new Promise(resolve => {
	vitest.once('close', code => resolve(code));
});

let summary;
try {
	summary = JSON.parse(readFileSync(results, 'utf8'));
} catch {
	console.log('0 passed, 1 failed');
	process.exit(vitestStatus || 1);
}

// Said plainly: a test skipped for want of a program is not a test passed.
for (const [program, test] of [
	['tmux', 'the real-terminal tests'],
	['prometheus', 'the Prometheus scrape test'],
]) {
	if (spawnSync(program, ['-V'], {stdio: 'ignore'}).error) {
		console.log(`skipped ${test}: no \`${program}\` on PATH (apt-get install ${program}; .ci/run does)`);
	}
}

const skipped = summary.numPendingTests + summary.numTodoTests;
console.log(`${summary.numPassedTests} passed, ${summary.numFailedTests} failed${skipped ? `, ${skipped} skipped` : ''}`);
process.exit(vitestStatus ?? 1);
