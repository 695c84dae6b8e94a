#!/usr/bin/env node
// Bundles the CLI into dist/podtop.js: one file starts far faster than hundreds of modules (Ink's
// dependencies alone take ~370 ms to load unbundled), and React is built for production.
import {build} from 'esbuild';

await build({
	entryPoints: [new URL('../source/cli.tsx', import.meta.url).pathname],
	outfile: new URL('../dist/podtop.js', import.meta.url).pathname,
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
	banner: {js: '#!/usr/bin/env node\nimport {createRequire as __podtopRequire} from \'node:module\';\nconst require = __podtopRequire(import.meta.url);'},
	logLevel: 'warning',
});
