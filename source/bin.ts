/**
The bin's entry: it checks the Node version in code every Node runs, then loads podtop (cli.tsx).
podtop's terminal UI (Ink), HTTP client (undici) and test runner need Node 22 or newer, and Node 20
reached its end of life on 2026-04-30: on an older Node podtop says so in one line and exits 2
(usage), rather than stopping on a syntax error or a missing API with a stack trace.
*/
import {minimumNodeMajor} from './lib/minimum-node.js';

const major = Number(process.versions.node.split('.')[0]);
if (major < minimumNodeMajor) {
	process.stderr.write(
		`podtop needs Node.js ${minimumNodeMajor} or newer (24 LTS recommended); this is Node.js ${process.versions.node}, which its terminal UI (Ink) and HTTP client (undici) no longer support.\n`,
	);
	process.exit(2);
}

await import('./cli.js');
