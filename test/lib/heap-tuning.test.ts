import {execFileSync} from 'node:child_process';
import {describe, expect, test} from 'vitest';

const tuning = new URL('../../dist/lib/heap-tuning.js', import.meta.url).href;

/** The new space's size (MB) in a fresh Node after polls whose lists survive, with or without tuneHeap first. */
function newSpaceAfterPolls(tuned: boolean): number {
	const script = `
		const {tuneHeap} = await import(${JSON.stringify(tuning)});
		const v8 = await import('node:v8');
		if (${tuned}) tuneHeap();
		const kept = [];
		for (let poll = 0; poll < 40; poll++) {
			kept[poll % 3] = Array.from({length: 20000}, (_, index) => ({id: 'pod-' + index, util: [poll, index % 100], name: 'name-' + index + '-' + poll}));
			await new Promise(resolve => setTimeout(resolve, 5));
		}
		process.stdout.write(String(v8.getHeapSpaceStatistics().find(space => space.space_name === 'new_space').space_size / 1048576));
	`;
	return Number(execFileSync(process.execPath, ['--input-type=module', '-e', script], {encoding: 'utf8'}));
}

describe('tuneHeap', () => {
	test('the young generation grows to two 4 MB semi-spaces and stops there without the shebang flag; V8 alone grows it further', () => {
		expect(newSpaceAfterPolls(false)).toBeGreaterThan(8);
		const tuned = newSpaceAfterPolls(true);
		expect(tuned).toBeLessThanOrEqual(8);
		expect(tuned).toBeGreaterThan(2);
	});
});
