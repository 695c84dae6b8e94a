#!/usr/bin/env node
// Bundles the CLI into dist/bundle/podtop.js (plus shared chunks): a few files start far faster
// than hundreds of modules (Ink's dependencies alone take ~370 ms to load unbundled), each command
// loads only its own chunk, and React is built for production.
import {chmodSync} from 'node:fs';
import {build} from 'esbuild';

/** Also in package.json's start script, for `npm start`. */
export const nodeFlags = '--max-semi-space-size=4 --max-old-space-size=256';
const outdir = new URL('../dist/bundle', import.meta.url).pathname;

await build({
	entryPoints: [new URL('../source/cli.tsx', import.meta.url).pathname],
	outdir,
	entryNames: 'podtop',
	chunkNames: 'chunk-[hash]',
	splitting: true,
	bundle: true,
	platform: 'node',
	format: 'esm',
	target: 'node20',
	jsx: 'automatic',
	minifySyntax: true,
	legalComments: 'none',
	// Ink connects React's devtools only in development: a stub stands in for them.
	alias: {'react-devtools-core': new URL('stubs/react-devtools-core.js', import.meta.url).pathname},
	define: {'process.env.NODE_ENV': '"production"'},
	// A long-lived TUI does not need V8's default heap growth (sized for a server on this machine):
	// smaller young and old generations keep 1,000 endpoints and 10,000 pods near 150 MB RSS.
	banner: {
		js: `#!/usr/bin/env -S node ${nodeFlags}\nimport {createRequire as __podtopRequire} from 'node:module';\nconst require = __podtopRequire(import.meta.url);`,
	},
	logLevel: 'warning',
});
chmodSync(`${outdir}/podtop.js`, 0o755);
