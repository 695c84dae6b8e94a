import {readdirSync, readFileSync} from 'node:fs';
import path from 'node:path';
import {fileURLToPath} from 'node:url';
import {describe, expect, test} from 'vitest';

const root = fileURLToPath(new URL('../../', import.meta.url));

function codeFiles(directory: string): string[] {
	return readdirSync(directory, {withFileTypes: true}).flatMap(entry => {
		const full = path.join(directory, entry.name);
		return entry.isDirectory() ? codeFiles(full) : /\.(?:tsx?|m?js)$/.test(entry.name) ? [full] : [];
	});
}

const texts = (folders: readonly string[]) =>
	new Map(folders.flatMap(folder => codeFiles(path.join(root, folder))).map(file => [file, readFileSync(file, 'utf8')]));

/** Exports kept for a test on purpose: each names what checks it. */
const testSeams = new Set([
	// The Prometheus reader's metrics: a test checks the exporter serves each.
	'readMetrics',
]);

/** Packages no file imports by name: tools run by the scripts, types, and the peers of packages that are imported. */
const notImported = new Set(['typescript', 'xo', 'node', '@types/node', '@types/pngjs', '@types/react', 'zod']);

describe('nothing is kept for nothing', () => {
	test('every function and constant `source/` exports is used in `source/` (not only by a test)', () => {
		const source = texts(['source']);
		const unused: string[] = [];
		for (const [file, text] of source) {
			for (const [, name] of text.matchAll(/^export (?:async )?(?:function\*? |const |let |class )(\w+)/gm)) {
				const word = new RegExp(String.raw`\b${name}\b`, 'g');
				const used = [...source].some(([other, otherText]) => (otherText.match(word)?.length ?? 0) > (other === file ? 1 : 0));
				if (!used && !testSeams.has(name!)) {
					unused.push(`${path.relative(root, file)}: ${name}`);
				}
			}
		}

		expect(unused).toEqual([]);
	});

	test('every package in package.json is imported somewhere (or is a tool, types, or a peer of one that is)', () => {
		const manifest = JSON.parse(readFileSync(path.join(root, 'package.json'), 'utf8')) as {
			dependencies?: Record<string, string>;
			devDependencies?: Record<string, string>;
		};
		const code = [...texts(['source', 'test', 'scripts']).values(), readFileSync(path.join(root, 'vitest.config.ts'), 'utf8')].join('\n');
		const imported = new Set([...code.matchAll(/(?:from |import\(|require\()\s*'((?:@[^/']+\/)?[^/']+)[^']*'/g)].map(match => match[1]));
		const packages = Object.keys({...manifest.dependencies, ...manifest.devDependencies});
		expect(packages.filter(name => !imported.has(name) && !notImported.has(name))).toEqual([]);
		// Each tool, type and peer is still in the manifest (a stale entry here would hide nothing, but says something untrue).
		expect([...notImported].filter(name => !packages.includes(name))).toEqual([]);
	});
});
