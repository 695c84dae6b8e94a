import {execFileSync} from 'node:child_process';
import {existsSync} from 'node:fs';
import {describe, expect, test} from 'vitest';

const priority = new URL('../../dist/lib/helper-priority.js', import.meta.url).href;

/** Each thread's nice value in a fresh Node (Linux's /proc/<pid>/task/<tid>/stat, field 19), the main thread's first, with or without lowering. */
function niceValues(lowered: boolean): {readonly main: number; readonly helpers: readonly number[]; readonly count: number} {
	const script = `
		const {lowerHelperThreadPriority} = await import(${JSON.stringify(priority)});
		const {readdirSync, readFileSync} = await import('node:fs');
		const count = ${lowered} ? lowerHelperThreadPriority() : 0;
		const nice = thread => Number(readFileSync('/proc/self/task/' + thread + '/stat', 'utf8').split(') ')[1].split(' ')[16]);
		const helpers = readdirSync('/proc/self/task').filter(thread => thread !== String(process.pid)).map(nice);
		process.stdout.write(JSON.stringify({main: nice(process.pid), helpers, count}));
	`;
	return JSON.parse(execFileSync(process.execPath, ['--input-type=module', '-e', script], {encoding: 'utf8'})) as ReturnType<typeof niceValues>;
}

describe('lowerHelperThreadPriority', () => {
	test.runIf(existsSync('/proc/self/task'))("V8's helper threads run ten nice steps below the main thread, which keeps its own", () => {
		const before = niceValues(false);
		expect(before.helpers.length).toBeGreaterThanOrEqual(4);
		expect(before.helpers.every(nice => nice === before.main)).toBe(true);

		const after = niceValues(true);
		expect(after.main).toBe(before.main);
		expect(after.count).toBe(after.helpers.length);
		expect(after.helpers.every(nice => nice === Math.min(19, before.main + 10))).toBe(true);
	});
});
