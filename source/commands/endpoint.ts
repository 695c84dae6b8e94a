import {sanitizeLine} from '../format/sanitize.js';
import {UsageError} from '../lib/usage-error.js';
import {connectionFlags, connectionHelp, readConnectionFlags} from './connection-flags.js';
import {withHeadlessEngine} from './headless-engine.js';
import {parseCommandLine} from './parse-command-line.js';
import {reportWrite} from './write-verb.js';

export const endpointHelp = `
	Usage
	  $ podtop endpoint scale <endpoint_id> --min N --max N [--json]
	  $ podtop endpoint delete <endpoint_id> --yes [--json]

	scale    Sets workersMin and workersMax (0 to 100, min ≤ max). The service replaces the whole
	         record on save, so podtop reads it whole and sends it back with the two changed.
	delete   Deletes the endpoint. The service deletes only at workersMin = workersMax = 0: scale it
	         to zero first. Without --yes it says what it would delete and sends nothing (exit 2).

	Every write is sent once and recorded in the audit log.
${connectionHelp}

	Exit status: 0 done, 1 the service refused, 2 usage or bad input (nothing sent), 3 authentication,
	4 no such endpoint, 5 network or timeout (not sent again), 6 read-only.

	Examples
	  $ podtop endpoint scale abc123 --min 0 --max 0
	  $ podtop endpoint delete abc123 --yes
`;

const workers = (name: string, value: number | undefined) => {
	if (value === undefined || !Number.isInteger(value) || value < 0 || value > 100) {
		throw new UsageError(`--${name} is a whole number of workers from 0 to 100; got ${value ?? 'nothing'}`);
	}

	return value;
};

/** `podtop endpoint scale|delete`. */
export async function runEndpoint(argv: readonly string[]): Promise<void> {
	const cli = parseCommandLine(
		endpointHelp,
		argv,
		{...connectionFlags, json: {type: 'boolean', default: false}, yes: {type: 'boolean', default: false}, min: {type: 'number'}, max: {type: 'number'}},
		'podtop endpoint',
	);
	const [action, endpointId, ...rest] = cli.input;
	if ((action !== 'scale' && action !== 'delete') || !endpointId || rest.length > 0) {
		throw new UsageError('usage: podtop endpoint scale <endpoint_id> --min N --max N, or podtop endpoint delete <endpoint_id> --yes');
	}

	const {flags} = cli;
	const scale = action === 'scale' ? {workersMin: workers('min', flags.min), workersMax: workers('max', flags.max)} : undefined;
	if (scale && scale.workersMin > scale.workersMax) {
		throw new UsageError(`--min (${scale.workersMin}) cannot be more than --max (${scale.workersMax})`);
	}

	const {target, budget, readOnly, auditPath} = readConnectionFlags(flags);
	await withHeadlessEngine(target, {budget, readOnly, auditPath, poll: []}, async engine => {
		if (scale) {
			reportWrite(
				await engine.perform('endpoint.scale', {endpointId}, scale),
				flags.json,
				record => `scaled: ${sanitizeLine(record.name)} (${record.id}) now runs ${record.workersMin ?? '?'} to ${record.workersMax ?? '?'} workers`,
			);
			return;
		}

		if (!readOnly) {
			// Refused before sending: a delete the service would refuse, or one not confirmed.
			const record = await engine.endpointRecord(endpointId);
			if (!record) {
				throw new UsageError(`no endpoint ${endpointId} in this account`);
			}

			if (record.workersMin !== 0 || record.workersMax !== 0) {
				throw new UsageError(
					`${sanitizeLine(record.name)} still has workers (min ${record.workersMin ?? '?'}, max ${record.workersMax ?? '?'}); the service deletes only at 0 and 0. First: podtop endpoint scale ${endpointId} --min 0 --max 0`,
				);
			}

			if (!flags.yes) {
				throw new UsageError(`would delete endpoint ${sanitizeLine(record.name)} (${endpointId}); add --yes to delete it`);
			}
		}

		reportWrite(await engine.perform('endpoint.delete', {endpointId}, undefined), flags.json, () => `deleted: endpoint ${endpointId}`);
	});
}
