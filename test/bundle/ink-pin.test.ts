import {readFileSync} from 'node:fs';
import {expect, test} from 'vitest';

const read = (path: string) => readFileSync(new URL(`../../${path}`, import.meta.url), 'utf8');

test('Ink is pinned to exactly the release the bundle’s stand-in was checked against, and that release is installed', () => {
	const pinned = (JSON.parse(read('package.json')) as {devDependencies: Record<string, string>}).devDependencies.ink;
	const checked = /const inkVersion = '([^']+)';/.exec(read('scripts/bundle.js'))?.[1];
	const installed = (JSON.parse(read('node_modules/ink/package.json')) as {version: string}).version;
	expect(pinned).toMatch(/^\d+\.\d+\.\d+$/);
	expect(checked).toBe(pinned);
	expect(installed).toBe(pinned);
});
