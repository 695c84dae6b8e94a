import meow from 'meow';
import {describeError} from '../api/errors.js';
import {redact} from '../api/redact.js';
import {createEngine} from '../engine/create-engine.js';
import {resolveTarget} from '../engine/resolve-target.js';
import {snapshotText} from '../headless/snapshot-text.js';
import {takeSnapshot} from '../headless/take-snapshot.js';
import {connectionFlags, connectionHelp, readConnectionFlags} from './connection-flags.js';
import {exitCodeFor} from './exit-code.js';

export const snapshotHelp = `
	Usage
	  $ podtop snapshot [--json] [options]

	Prints one consistent picture (endpoints with health, pods with runtime, GPU types with
	stock) and exits. No TTY needed; it keeps within the same rate budgets as the dashboard.

	Options
	  --json            Print JSON instead of tables
${connectionHelp}

	Exit status: 0 ok, 3 authentication failed, 4 not found, 5 network or timeout, 1 other.

	Examples
	  $ podtop snapshot --json | jq '.pods[] | select(.desiredStatus == "RUNNING") | .name'
	  $ RUNPOD_API_KEY=... podtop snapshot --endpoints abc123,def456
`;

export async function runSnapshot(argv: readonly string[]): Promise<void> {
	const cli = meow(snapshotHelp, {importMeta: import.meta, argv: [...argv], flags: {...connectionFlags, json: {type: 'boolean', default: false}}});
	const {target, endpointFilter, budget} = readConnectionFlags(cli.flags);
	const resolved = resolveTarget(target);
	for (const warning of resolved.warnings) {
		process.stderr.write(`podtop: ${warning}\n`);
	}

	const engine = await createEngine({target: resolved, budget, endpointFilter, allVisible: true});
	try {
		const {apiHost} = engine.store.getState();
		const snapshot = await takeSnapshot(engine.api, {mode: engine.mode, apiHost, endpointFilter});
		process.stdout.write(cli.flags.json ? `${JSON.stringify(snapshot, undefined, 2)}\n` : snapshotText(snapshot));
	} catch (error) {
		process.stderr.write(`podtop: ${redact(describeError(error), resolved.mode === 'live' ? resolved.apiKey : undefined)}\n`);
		process.exitCode = exitCodeFor(error);
	} finally {
		await engine.close();
	}
}
