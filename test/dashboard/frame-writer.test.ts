import {describe, expect, test} from 'vitest';
import {diffFrame} from '../../source/dashboard/frame-writer.js';

describe('frame writer', () => {
	test('sends only the lines that changed, at their rows; clears lines that went away', () => {
		expect(diffFrame(['a', 'b', 'c'], ['a', 'B', 'c'])).toBe('\u001B[2;1HB\u001B[K');
		expect(diffFrame(['a', 'b', 'c'], ['a', 'b', 'c'])).toBe('');
		expect(diffFrame(['a', 'b', 'c'], ['a'])).toBe('\u001B[2;1H\u001B[K\u001B[3;1H\u001B[K');
	});
});
