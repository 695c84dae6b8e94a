#!/usr/bin/env node
// Runs the whole suite (vitest) and ends with one plain line: "N passed, N failed[, N skipped]".
import {spawnSync} from 'node:child_process';
import {readFileSync, rmSync} from 'node:fs';
import {fileURLToPath} from 'node:url';

const root = fileURLToPath(new URL('..', import.meta.url));
const results = `${root}.vitest-results.json`;
rmSync(results, {force: true});

// Build dist/ and the bundle (the terminal tests run the real CLI), type-check and lint everything, tests included.
const tsc = `${root}node_modules/typescript/bin/tsc`;
const steps = [
	[tsc, '-p', `${root}tsconfig.build.json`],
	[`${root}scripts/bundle.js`],
	[tsc, '--noEmit', '-p', `${root}tsconfig.json`],
	// `npm run lint`: xo (ESLint with prettier) over source, tests and scripts.
	[`${root}node_modules/xo/dist/cli.js`],
];
const failed = steps.some(step => spawnSync(process.execPath, step, {stdio: 'inherit', cwd: root}).status !== 0);
if (failed) {
	console.log('0 passed, 1 failed');
	process.exit(1);
}

const vitest = spawnSync(
	process.execPath,
	[`${root}node_modules/vitest/vitest.mjs`, 'run', '--reporter=default', '--reporter=json', `--outputFile.json=${results}`, ...process.argv.slice(2)],
	{stdio: 'inherit', cwd: root},
);

let summary;
try {
	summary = JSON.parse(readFileSync(results, 'utf8'));
} catch {
	console.log('0 passed, 1 failed');
	process.exit(vitest.status || 1);
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
process.exit(vitest.status ?? 1);
