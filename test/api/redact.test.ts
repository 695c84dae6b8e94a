import {describe, expect, test} from 'vitest';
import {keyFingerprint, redact} from '../../source/api/redact.js';

describe('redact', () => {
	test('removes ?api_key= values, bearer tokens and the key itself', () => {
		const key = 'rpa_ABCDEF1234567890';
		expect(redact(`POST https://api.runpod.io/graphql?api_key=${key}&x=1 failed`)).toBe('POST https://api.runpod.io/graphql?api_key=[redacted]&x=1 failed');
		expect(redact(`Authorization: Bearer ${key}`)).toBe('Authorization: Bearer [redacted]');
		expect(redact(`echoed ${key} back`, key)).toBe('echoed [redacted] back');
	});

	test('a fingerprint shows only the last four characters', () => {
		expect(keyFingerprint('rpa_ABCDEF1234561a2b')).toBe('••••1a2b');
	});
});
