import {readdirSync, readFileSync} from 'node:fs';
import path from 'node:path';
import {fileURLToPath} from 'node:url';
import {describe, expect, test} from 'vitest';

const sourceRoot = fileURLToPath(new URL('../../source/', import.meta.url));

/**
The layers of `source/`, lowest first: a folder imports only from folders of a lower rank (or from
itself). The simulator shares nothing with the client but its small helpers.
*/
const ranks: Readonly<Record<string, number>> = {
	lib: 0,
	model: 1,
	format: 1,
	config: 1,
	api: 2,
	'view-state': 2,
	store: 3,
	requests: 3,
	images: 3,
	sim: 3,
	poll: 4,
	history: 4,
	forms: 4,
	engine: 5,
	rows: 5,
	headless: 6,
	serve: 6,
	operations: 6,
	components: 7,
	doctor: 7,
	panes: 8,
	dashboard: 9,
	commands: 10,
	'cli.tsx': 11,
	// The bin's entry: a Node version check, then cli.tsx.
	'bin.ts': 12,
};

function sourceFiles(directory: string): string[] {
	return readdirSync(directory, {withFileTypes: true}).flatMap(entry => {
		const full = path.join(directory, entry.name);
		return entry.isDirectory() ? sourceFiles(full) : /\.tsx?$/.test(entry.name) ? [full] : [];
	});
}

/** Every relative import of every file (static, type-only and dynamic), resolved to source files. */
function importGraph(): Map<string, string[]> {
	const graph = new Map<string, string[]>();
	for (const file of sourceFiles(sourceRoot)) {
		const text = readFileSync(file, 'utf8');
		const targets = [...text.matchAll(/(?:from|import\()\s*'(\.{1,2}\/[^']+)'/g)].map(match => {
			const resolved = path.resolve(path.dirname(file), match[1]!);
			return resolved.replace(/\.js$/, readdirSync(path.dirname(resolved)).includes(`${path.basename(resolved, '.js')}.tsx`) ? '.tsx' : '.ts');
		});
		graph.set(file, targets);
	}

	return graph;
}

const relative = (file: string) => path.relative(sourceRoot, file);
const layer = (file: string) => relative(file).split(path.sep)[0]!;

describe('the structure of source/', () => {
	const graph = importGraph();

	test('every folder has a rank', () => {
		for (const file of graph.keys()) {
			expect(ranks[layer(file)], relative(file)).toBeDefined();
		}
	});

	test('imports go downward only', () => {
		const upward: string[] = [];
		for (const [file, targets] of graph) {
			for (const target of targets) {
				if (layer(file) !== layer(target) && ranks[layer(target)]! >= ranks[layer(file)]!) {
					upward.push(`${relative(file)} -> ${relative(target)}`);
				}
			}
		}

		expect(upward).toEqual([]);
	});

	// podtop's records live in model/; a wire format (GraphQL's documents and answers, REST v2's
	// generated schema) is read and mapped in api/ alone (and spoken by the simulator, the service's side).
	// Elsewhere only an adapter's factory is named.
	test('no wire type leaves api/', () => {
		const leaks: string[] = [];
		for (const file of sourceFiles(sourceRoot).filter(file => !['api', 'sim'].includes(layer(file)))) {
			const text = readFileSync(file, 'utf8');
			for (const match of text.matchAll(/^import\s+(type\s+)?{([^}]*)}\s+from\s+'[./]*\/api\/(graphql-[^']+|rest\/[^']+)'/gm)) {
				const names = match[2]!
					.split(',')
					.map(name => name.trim().replace(/^type\s+/, ''))
					.filter(Boolean);
				if (match[1] !== undefined || names.some(name => !/^create[A-Z]\w*Api$/.test(name))) {
					leaks.push(`${relative(file)}: ${names.join(', ')} from api/${match[3]!}`);
				}
			}
		}

		expect(leaks).toEqual([]);
	});

	test('no import cycles between files', () => {
		const cycles: string[] = [];
		const state = new Map<string, 'visiting' | 'done'>();
		const stack: string[] = [];
		const visit = (file: string) => {
			state.set(file, 'visiting');
			stack.push(file);
			for (const target of graph.get(file) ?? []) {
				if (state.get(target) === 'visiting') {
					cycles.push([...stack.slice(stack.indexOf(target)), target].map(item => relative(item)).join(' -> '));
				} else if (!state.has(target)) {
					visit(target);
				}
			}

			stack.pop();
			state.set(file, 'done');
		};

		for (const file of graph.keys()) {
			if (!state.has(file)) {
				visit(file);
			}
		}

		expect(cycles).toEqual([]);
	});
});
