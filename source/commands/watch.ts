import meow from 'meow';
import {createEngine} from '../engine/create-engine.js';
import {resolveTarget} from '../engine/resolve-target.js';
import {changeEvents} from '../headless/change-events.js';
import {connectionFlags, connectionHelp, readConnectionFlags} from './connection-flags.js';
import {untilSignal} from './until-signal.js';

export const watchHelp = `
	Usage
	  $ podtop watch --jsonl [options]

	Prints one JSON line per change (endpoint health, pods, GPU stock, connection state) until
	interrupted. No TTY needed; it keeps within the same rate budgets as the dashboard.

	Options
	  --jsonl           One JSON object per line (the only format, and the default)
${connectionHelp}

	Examples
	  $ podtop watch --jsonl | jq -c 'select(.type == "health") | {endpointId, queue: .health.jobs.inQueue}'
`;

export async function runWatch(argv: readonly string[]): Promise<void> {
	const cli = meow(watchHelp, {importMeta: import.meta, argv: [...argv], flags: {...connectionFlags, jsonl: {type: 'boolean', default: true}}});
	if (!cli.flags.jsonl) {
		throw new Error('watch prints JSON lines only: drop --no-jsonl');
	}

	const {target, endpointFilter, budget} = readConnectionFlags(cli.flags);
	const resolved = resolveTarget(target);
	for (const warning of resolved.warnings) {
		process.stderr.write(`podtop: ${warning}\n`);
	}

	const engine = await createEngine({target: resolved, budget, endpointFilter, allVisible: true});
	let closed = false;
	const write = (event: Record<string, unknown>) => {
		if (!closed) {
			process.stdout.write(`${JSON.stringify(event)}\n`);
		}
	};

	// A reader that goes away (| head) ends the watch quietly.
	const stopped = new Promise<void>(resolve => {
		process.stdout.once('error', () => {
			closed = true;
			resolve();
		});
	});
	const {mode, apiHost} = engine.store.getState();
	write({type: 'hello', at: new Date().toISOString(), mode, apiHost});
	const unsubscribe = engine.store.subscribe((next, previous) => {
		const at = new Date().toISOString();
		for (const event of changeEvents(previous, next, at)) {
			write(event);
		}
	});
	engine.pollers.start();
	await Promise.race([untilSignal(), stopped]);
	unsubscribe();
	await engine.close();
}
