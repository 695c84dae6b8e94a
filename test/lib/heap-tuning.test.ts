import {execFileSync} from 'node:child_process';
import {describe, expect, test} from 'vitest';

const tuning = new URL('../../dist/lib/heap-tuning.js', import.meta.url).href;

/**
The new space's size (MB) in a fresh Node after polls whose lists survive, with or without tuneHeap
first. Each poll makes about a megabyte between turns of the event loop, as podtop's do (a list is
parsed a chunk at a time): V8 tells of its collections after the fact, so one that makes more than a
semi-space at once can be collected twice, and grow twice, before the limit is set again.
*/
function newSpaceAfterPolls(tuned: boolean): number {
	const script = `
		const {tuneHeap} = await import(${JSON.stringify(tuning)});
		const v8 = await import('node:v8');
		if (${tuned}) tuneHeap();
		const kept = [];
		for (let poll = 0; poll < 80; poll++) {
			kept[poll % 3] = Array.from({length: 8000}, (_, index) => ({id: 'pod-' + index, util: [poll, index % 100], name: 'name-' + index + '-' + poll}));
			await new Promise(resolve => setTimeout(resolve, 5));
		}
		process.stdout.write(String(v8.getHeapSpaceStatistics().find(space => space.space_name === 'new_space').space_size / 1048576));
	`;
	return Number(execFileSync(process.execPath, ['--input-type=module', '-e', script], {encoding: 'utf8'}));
}

describe('tuneHeap', () => {
	test('the young generation grows to two 2 MB semi-spaces and stops there without the shebang flag; V8 alone grows it further', () => {
		expect(newSpaceAfterPolls(false)).toBeGreaterThan(8);
		const tuned = newSpaceAfterPolls(true);
		expect(tuned).toBeLessThanOrEqual(4);
		expect(tuned).toBeGreaterThan(1);
	});
});
