import {mkdtempSync, rmSync, writeFileSync} from 'node:fs';
import {tmpdir} from 'node:os';
import path from 'node:path';
import {afterAll, describe, expect, test} from 'vitest';
import {readJobInput} from '../../source/commands/job-input.js';
import {UsageError} from '../../source/lib/usage-error.js';

const folder = mkdtempSync(path.join(tmpdir(), 'podtop-job-input-'));
afterAll(() => {
	rmSync(folder, {recursive: true, force: true});
});

/** `{"prompt": "caf?"}` with ? a Latin-1 é (0xe9): not UTF-8, at byte 15. */
const latin1 = Buffer.concat([Buffer.from('{"prompt": "caf'), Buffer.from([0xe9]), Buffer.from('"}')]);

describe('readJobInput', () => {
	test('a file or standard input in UTF-8 is read as written', () => {
		const file = path.join(folder, 'good.json');
		writeFileSync(file, '{"prompt": "café 😀"}');
		expect(readJobInput(`@${file}`)).toEqual({prompt: 'café 😀'});
		expect(readJobInput('-', () => Buffer.from('{"prompt": "café"}'))).toEqual({prompt: 'café'});
	});

	test('bytes that are not UTF-8 are refused (a usage error, exit 2) naming the byte, not replaced and sent', () => {
		const file = path.join(folder, 'latin1.json');
		writeFileSync(file, latin1);
		expect(() => readJobInput(`@${file}`)).toThrow(UsageError);
		expect(() => readJobInput(`@${file}`)).toThrow(`${file} is not valid UTF-8: byte 15 (0xe9) starts no character; save it as UTF-8`);
		expect(() => readJobInput('-', () => latin1)).toThrow('the input on standard input is not valid UTF-8: byte 15 (0xe9)');
	});
});
