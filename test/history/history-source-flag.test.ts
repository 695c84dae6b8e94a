import {describe, expect, test} from 'vitest';
import {readHistoryFlags} from '../../source/commands/history-flags.js';
import {UsageError} from '../../source/lib/usage-error.js';

describe('--history-source', () => {
	test('prometheus=URL reads history from that Prometheus; nothing is recorded here', () => {
		const options = readHistoryFlags({history: true, historySource: 'prometheus=http://team:s3cret@127.0.0.1:9090/prometheus'});
		expect(options.prometheusUrl).toBe('http://team:s3cret@127.0.0.1:9090/prometheus');
		expect(options.disabled).toBe(false);
		expect(readHistoryFlags({history: false, historySource: 'prometheus=http://127.0.0.1:9090'})).toMatchObject({disabled: true, prometheusUrl: undefined});
	});

	test('anything else is a usage error that says what to write, and never repeats a password', () => {
		for (const source of ['graphite=http://x:2003', 'prometheus=127.0.0.1:9090', 'prometheus=http://team:s3cret@[::1', 'prometheus=']) {
			let error: unknown;
			try {
				readHistoryFlags({history: true, historySource: source});
			} catch (error_) {
				error = error_;
			}

			expect(error, source).toBeInstanceOf(UsageError);
			expect((error as Error).message).toContain('--history-source takes prometheus=URL (like prometheus=http://127.0.0.1:9090)');
			expect((error as Error).message).not.toContain('s3cret');
		}
	});
});
