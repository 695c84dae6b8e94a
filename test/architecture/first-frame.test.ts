import {readdirSync, readFileSync} from 'node:fs';
import path from 'node:path';
import {fileURLToPath} from 'node:url';
import {expect, test} from 'vitest';

const sourceRoot = fileURLToPath(new URL('../../source/', import.meta.url));

/** The packages a file loads before it runs: value imports only (a type import and a dynamic `import()` load nothing then). */
function staticPackages(entry: string): Map<string, string> {
	const packages = new Map<string, string>();
	const seen = new Set<string>();
	const visit = (file: string) => {
		if (seen.has(file)) {
			return;
		}

		seen.add(file);
		const text = readFileSync(file, 'utf8');
		for (const match of text.matchAll(/^(?:import|export)(?!\s+type\b)[^;]*?\sfrom\s*'([^']+)'|^import\s*'([^']+)'/gm)) {
			const specifier = match[1] ?? match[2] ?? '';
			if (specifier.startsWith('.')) {
				const resolved = path.resolve(path.dirname(file), specifier);
				const tsx = readdirSync(path.dirname(resolved)).includes(`${path.basename(resolved, '.js')}.tsx`);
				visit(resolved.replace(/\.js$/, tsx ? '.tsx' : '.ts'));
			} else if (!specifier.startsWith('node:')) {
				packages.set(specifier, path.relative(sourceRoot, file));
			}
		}
	};

	visit(path.join(sourceRoot, entry));
	return packages;
}

// The dashboard's first frame is drawn from the store alone; the HTTP clients and SQLite load with the engine after it.
test.each(['cli.tsx', 'commands/top-level.ts', 'commands/dashboard.tsx'])('%s loads no HTTP client and no SQLite before the first frame', entry => {
	const packages = staticPackages(entry);
	for (const heavy of ['undici', 'graphql-request', 'libsql']) {
		expect(packages.get(heavy), `${heavy} is imported by ${packages.get(heavy) ?? ''}`).toBeUndefined();
	}

	// The check sees the packages it should: Ink is what draws that frame.
	expect(entry === 'commands/dashboard.tsx' ? packages.has('ink') : true).toBe(true);
});
