#!/usr/bin/env node
// Bundles the CLI into dist/bundle/podtop.js (plus shared chunks): a few files start far faster
// than hundreds of modules (Ink's dependencies alone take ~370 ms to load unbundled), each command
// loads only its own chunk, and React is built for production.
import {chmodSync, rmSync, writeFileSync} from 'node:fs';
import {readFile} from 'node:fs/promises';
import {build} from 'esbuild';
import {inkPatchPlugin} from './ink-patches.js';

/**
The packages the bundle leaves for Node to load: what cannot be inlined (a native binding). They, and
only they, are package.json's `dependencies`, what `npm install podtop` installs; everything the
bundle inlines is a devDependency (`npm install -D`). test/package/bundle-dependencies.test.ts checks
the two agree, from the import list the build writes to dist/bundle-imports.json: a package
installed without -D fails it instead of quietly shipping.
*/
// libsql: SQLite for the recorded history; its prebuilt binary comes in a per-platform package of the registry.
const runtimeDependencies = ['libsql'];

/**
V8 tuned for a long-lived TUI on a shared jump host, each measured by `npm run bench` (1,000 endpoints,
10,000 pods): smaller young and old generations (V8's defaults are sized for a server: without
`--max-old-space-size=256` RSS was 186 MB rather than 164 on Node 24); no memory reducer, whose extra full
collections in every quiet moment were a third of the idle CPU at 10,000 pods on Node 20. (`--no-wasm-tier-up` was
here for a 35 MB spike of Yoga's optimising compile at start: on Node 24 the peak was 168 MB with tier-up, 165 without,
so it went.) The shebang is lost
when podtop is started as `node dist/bundle/podtop.js`, by a busybox env without -S or by npm's
Windows shim: the readme says which of them NODE_OPTIONS takes (the two sizes) and how to give the rest.
On Node 24, at 500 endpoints + 2,000 pods (side by side, one simulator): semi-spaces of 2 MB rather than 4
(V8 13 no longer shrinks the young generation in quiet times, so it stayed at its largest) took 3.5 MB of RSS.
*/
export const nodeFlags = '--max-semi-space-size=2 --max-old-space-size=256 --no-memory-reducer';
/**
One malloc arena for the whole process (glibc's; other C libraries ignore it). On Node 24 V8's four helper
threads each got an arena of their own and kept what their compiles and marking had freed: 14 MB of arenas
beside the main one's 11 at 500 endpoints + 2,000 pods, against 6 on Node 20. With one arena, 16 MB in all:
RSS 136 → 126 MB (with 2 MB semi-spaces 136 → 123). Set by `env -S` in the shebang, as it must be
before the process starts.
*/
export const nodeEnvironment = 'MALLOC_ARENA_MAX=1';
/**
Start-up costs of dependencies that podtop does not need, left out of the bundle. Each patch names
the file, the exact text it replaces and why; a dependency whose file no longer has that text fails
the build here, rather than the cost coming back silently.
*/
const startupPatches = [
	{
		// meow carries its dependencies in one file that builds normalize-package-data on import
		// (spdx-correct's licence tables: ~50 ms of every start) for a normalised package.json podtop
		// never reads (it reads `pkg.version` alone, which is there as written).
		file: /[\\/]meow[\\/]build[\\/]dependencies\.js$/,
		find: 'var normalizeExports = requireNormalize();\nconst normalizePackageData = getDefaultExportFromCjs(normalizeExports);',
		replace: 'const normalizePackageData = () => {};',
	},
	{
		// Yoga (Ink's layout) loads its WebAssembly from a data: URL through the global fetch when there
		// is one, which makes Node load its own copy of undici first (~75 ms before the first frame);
		// without fetch it decodes the same base64 itself.
		file: /[\\/]yoga-layout[\\/]dist[\\/]binaries[\\/]yoga-wasm-base64-esm\.js$/,
		find: 'function ya(){return w||"function"!=typeof fetch?',
		replace: 'function ya(){return!0?',
	},
];
const leanStartup = {
	name: 'lean-startup',
	setup(build) {
		for (const {file, find, replace} of startupPatches) {
			build.onLoad({filter: file}, async args => {
				const text = await readFile(args.path, 'utf8');
				if (!text.includes(find)) {
					return {errors: [{text: `${args.path} no longer has the text scripts/bundle.js patches out (${find.slice(0, 60)}…): look again at startupPatches`}]};
				}

				return {contents: text.replace(find, replace), loader: 'js'};
			});
		}
	},
};
const outdir = new URL('../dist/bundle', import.meta.url).pathname;
// Chunks are named by hash: a rebuild would leave the last build's beside the new ones.
rmSync(outdir, {recursive: true, force: true});

const {metafile} = await build({
	// The simulator's thread (the demo's) is an entry of its own: a worker runs a file.
	entryPoints: {
		// A Node version check first (bin.ts), then the rest (cli.tsx), loaded only once the check has passed.
		podtop: new URL('../source/bin.ts', import.meta.url).pathname,
		// The worker thread that decodes a job's picture (source/images/decode-off-thread.ts finds it beside its chunk).
		'image-worker': new URL('../source/images/image-worker.ts', import.meta.url).pathname,
		'sim-thread': new URL('../source/sim/sim-thread.ts', import.meta.url).pathname,
	},
	outdir,
	entryNames: '[name]',
	chunkNames: 'chunk-[hash]',
	splitting: true,
	bundle: true,
	platform: 'node',
	format: 'esm',
	target: 'node22',
	jsx: 'automatic',
	// Names are kept (errors stay readable); whitespace goes: V8 keeps every loaded script's source
	// in the heap (3.6 → 2.6 MB of chunks).
	minifySyntax: true,
	minifyWhitespace: true,
	legalComments: 'none',
	// An external package also covers its subpaths (`libsql/x`).
	external: runtimeDependencies,
	// Ink connects React's devtools only in development (DEV=true): stubs stand in for them and for
	// the WebSocket (ws, with its optional native add-ons) Ink hands them.
	alias: {
		'react-devtools-core': new URL('stubs/react-devtools-core.js', import.meta.url).pathname,
		ws: new URL('stubs/ws.js', import.meta.url).pathname,
	},
	plugins: [leanStartup, inkPatchPlugin],
	define: {'process.env.NODE_ENV': '"production"'},
	banner: {
		js: `#!/usr/bin/env -S ${nodeEnvironment} node ${nodeFlags}\nimport {createRequire as __podtopRequire} from 'node:module';\nconst require = __podtopRequire(import.meta.url);`,
	},
	logLevel: 'warning',
	metafile: true,
});
chmodSync(`${outdir}/podtop.js`, 0o755);

// What the bundle leaves for Node to load, beside dist/bundle (which is what gets published).
const imports = new Set(Object.values(metafile.outputs).flatMap(output => output.imports.filter(({external}) => external).map(({path}) => path)));
writeFileSync(new URL('../dist/bundle-imports.json', import.meta.url), `${JSON.stringify([...imports].sort(), undefined, '\t')}\n`);
