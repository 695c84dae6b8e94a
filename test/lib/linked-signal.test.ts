import {getEventListeners} from 'node:events';
import {describe, expect, test} from 'vitest';
import {linkedSignal} from '../../source/lib/linked-signal.js';

/** What a signal holds in its maps and sets (Node's own, kept under symbols): its listeners, and the signals made from it. */
const held = (signal: AbortSignal) =>
	Object.getOwnPropertySymbols(signal)
		.map(symbol => (signal as unknown as Record<symbol, unknown>)[symbol])
		.filter((value): value is {size: number} => typeof (value as {size?: unknown} | undefined)?.size === 'number')
		.reduce((sum, value) => sum + value.size, 0);

describe('linkedSignal', () => {
	test('aborts after its time with a TimeoutError, as AbortSignal.timeout does', async () => {
		const source = new AbortController();
		const linked = linkedSignal(source.signal, 20);
		await new Promise(resolve => setTimeout(resolve, 60));
		expect(linked.signal.aborted).toBe(true);
		expect((linked.signal.reason as DOMException).name).toBe('TimeoutError');
		expect(source.signal.aborted).toBe(false);
		linked.done();
	});

	test('aborts with its source, with the source’s reason, also when the source was aborted before', () => {
		const source = new AbortController();
		const linked = linkedSignal(source.signal, 60_000);
		source.abort();
		expect(linked.signal.aborted).toBe(true);
		expect((linked.signal.reason as DOMException).name).toBe('AbortError');
		expect(linkedSignal(source.signal, 60_000).signal.aborted).toBe(true);
		linked.done();
	});

	test('a long-lived source keeps nothing of 1,000 requests once each is done (AbortSignal.any on Node 20 kept a reference for each)', () => {
		const source = new AbortController();
		for (let request = 0; request < 1000; request++) {
			linkedSignal(source.signal, 60_000).done();
		}

		expect(getEventListeners(source.signal, 'abort')).toHaveLength(0);
		expect(held(source.signal)).toBe(0);
	});

	test('without a source, only the time limit', async () => {
		const linked = linkedSignal(undefined, 10);
		await new Promise(resolve => setTimeout(resolve, 40));
		expect((linked.signal.reason as DOMException).name).toBe('TimeoutError');
	});
});
