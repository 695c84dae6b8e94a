import {describe, expect, test} from 'vitest';
import {App} from '../../source/dashboard/app.js';
import {frameMatching, health, renderWith, testStore, tick} from '../helpers/ui-fixture.js';

function storeWithJobs() {
	const state = testStore();
	const {writes} = state;
	writes.setEndpoints([{id: 'ep1', name: 'llama-vllm', workersMin: 1, workersMax: 2}], 0);
	writes.setHealth('ep1', health(), 0);
	const statuses = ['COMPLETED', 'FAILED', 'TIMED_OUT', 'CANCELLED', 'IN_QUEUE', 'IN_PROGRESS', 'COMPLETED'];
	for (const [index, status] of statuses.entries()) {
		const key = writes.trackJob('ep1', `job-${index}-${status.toLowerCase()}`);
		writes.updateJob(key, {id: `job-${index}-${status.toLowerCase()}`, status}, index);
	}

	return state;
}

describe('tracked jobs of an endpoint', () => {
	test('f steps through the status filter: all, active, completed, failed (with timed out), cancelled', async () => {
		const {lastFrame, stdin, view} = renderWith(storeWithJobs(), <App readOnly={false} />);
		await tick();
		stdin.write('\r');
		let frame = await frameMatching(lastFrame, /Tracked jobs \(7\) +n new job · t test job · f status: all/);
		expect(frame.match(/job-\d-/g)).toHaveLength(7);
		const expected: Array<[string, RegExp, string[]]> = [
			['active', /Tracked jobs \(2 of 7 active\)/, ['job-4-in_queue', 'job-5-in_progress']],
			['completed', /Tracked jobs \(2 of 7 completed\)/, ['job-0-completed', 'job-6-completed']],
			['failed', /Tracked jobs \(2 of 7 failed\)/, ['job-1-failed', 'job-2-timed_out']],
			['cancelled', /Tracked jobs \(1 of 7 cancelled\)/, ['job-3-cancelled']],
		];
		for (const [filter, title, jobs] of expected) {
			stdin.write('f');
			frame = await frameMatching(lastFrame, title);
			expect(view.getState().jobStatusFilter).toBe(filter);
			expect([...frame.matchAll(/job-\d-[a-z_]+/g)].map(match => match[0]).sort()).toEqual(jobs);
		}

		// Enter opens the selected job of the filtered list.
		stdin.write('\r');
		await frameMatching(lastFrame, /Job job-3-cancelled on ep1/);
		stdin.write('\u001B');
		await tick();
		stdin.write('f');
		await frameMatching(lastFrame, /Tracked jobs \(7\)/);
	});
});
