import {readFileSync} from 'node:fs';
import {isBuiltin} from 'node:module';
import {describe, expect, test} from 'vitest';

const root = new URL('../../', import.meta.url);
const manifest = JSON.parse(readFileSync(new URL('package.json', root), 'utf8')) as {
	dependencies?: Record<string, string>;
	devDependencies?: Record<string, string>;
};
const dependencies = Object.keys(manifest.dependencies ?? {});
/** Every import the bundle leaves for Node to load, as scripts/bundle.js wrote them from esbuild's metafile. */
const imports = JSON.parse(readFileSync(new URL('dist/bundle-imports.json', root), 'utf8')) as string[];

/** The package a bare specifier names: `@scope/name/sub` is `@scope/name`, `name/sub` is `name`. */
function packageName(specifier: string): string {
	const parts = specifier.split('/');
	return (specifier.startsWith('@') ? parts.slice(0, 2) : parts.slice(0, 1)).join('/');
}

// `node:` specifiers are Node's even when this Node lacks one (undici asks for node:sqlite when it has it).
const packages = [...new Set(imports.filter(specifier => !specifier.startsWith('node:') && !isBuiltin(specifier)).map(specifier => packageName(specifier)))];

describe('the bundle and package.json dependencies agree', () => {
	test("the import list is the build's (it names the Node modules the bundle loads)", () => {
		expect(imports).toContain('node:fs');
		expect(imports).toContain('node:http');
	});

	test('every package the bundle leaves external is a declared dependency', () => {
		expect(packages.filter(name => !dependencies.includes(name))).toEqual([]);
	});

	test('every dependency is one the bundle loads (anything it inlines is a devDependency)', () => {
		expect(dependencies.filter(name => !packages.includes(name))).toEqual([]);
	});

	test('no package is both a dependency and a devDependency', () => {
		expect(dependencies.filter(name => Object.hasOwn(manifest.devDependencies ?? {}, name))).toEqual([]);
	});
});
