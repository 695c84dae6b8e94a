import {execFileSync} from 'node:child_process';
import {describe, expect, test} from 'vitest';

const tuning = new URL('../../dist/lib/jit-tuning.js', import.meta.url).href;

/**
How many calls, made in bursts of 100 as a poll or a frame makes them, a small function takes to
be optimised by TurboFan, with or without the tuning first. Compiled on the main thread and never
inlined into its caller, so the count is the same at every run.
*/
function callsUntilOptimised(tuned: boolean): number {
	const script = `
		const {tuneJitForLongRuns} = await import(${JSON.stringify(tuning)});
		if (${tuned}) tuneJitForLongRuns();
		function cell(a, b) { return a.x * 3 + b.y - (a.x > b.y ? 1 : 0); }
		const one = {x: 1};
		const two = {y: 2};
		let calls = 0;
		const burst = () => {
			for (let index = 0; index < 100; index++, calls++) cell(one, two);
		};
		%NeverOptimizeFunction(burst);
		// 16: optimised by TurboFan (V8's optimisation status bits).
		while (calls < 1_000_000 && !(%GetOptimizationStatus(cell) & 16)) {
			burst();
			await new Promise(resolve => setImmediate(resolve));
		}

		process.stdout.write(String(calls));
	`;
	return Number(
		execFileSync(process.execPath, ['--allow-natives-syntax', '--no-concurrent-recompilation', '--input-type=module', '-e', script], {encoding: 'utf8'}),
	);
}

describe('tuneJitForLongRuns', () => {
	test('set once Node runs, a function warmed in small bursts is optimised after about eight times the calls', () => {
		const byDefault = callsUntilOptimised(false);
		const tuned = callsUntilOptimised(true);
		expect(byDefault).toBeLessThan(10_000);
		expect(tuned).toBeLessThan(1_000_000);
		expect(tuned).toBeGreaterThanOrEqual(5 * byDefault);
	});
});
