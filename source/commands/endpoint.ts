import {ApiError} from '../api/errors.js';
import type {EndpointInput} from '../model/endpoint.js';
import {nameWithId} from '../engine/find-named.js';
import {inertJson, sanitizeLine} from '../format/sanitize.js';
import {describeChanges, planEndpoint, type EndpointFields, type EndpointProblems} from '../requests/endpoint-request.js';
import {UsageError} from '../lib/usage-error.js';
import {isSubcommand, subcommandUsage} from './command-list.js';
import {connectionHelp, readConnectionFlags} from './connection-flags.js';
import {withHeadlessEngine} from './headless-engine.js';
import {writeTarget} from './write-target.js';
import {parseCommandLine} from './parse-command-line.js';
import {reportWrite} from './write-verb.js';
import {endpointFlags} from './command-flags.js';

export const endpointHelp = `
	Usage
	  $ podtop endpoint scale <endpoint> --min N --max N [--json]
	  $ podtop endpoint update <endpoint> [fields] [--dry-run] [--json]
	  $ podtop endpoint create --name NAME --template ID --gpu-ids POOLS [fields] [--dry-run] [--json]
	  $ podtop endpoint delete <endpoint> --yes [--json]

	<endpoint> is its id or its name; a name two endpoints share, or none has, lists them with their
	ids (exit 4).

	Fields
	  --name, --template, --gpu-ids (e.g. ADA_24,AMPERE_48), --min, --max (workers),
	  --idle-timeout (s), --scaler-type QUEUE_DELAY|REQUEST_COUNT, --scaler-value,
	  --locations (e.g. US,EU-RO-1; empty for any), --network-volume ID,
	  --flashboot off|on|priority (created without it: off over REST v2; over GraphQL a name
	  ending in -fb turns it on, the service's old rule)

	update   Changes the fields given and prints what changed (old → new); --dry-run sends nothing.
	scale    Sets workersMin and workersMax (0 to 100, min ≤ max). Over REST v2 only the two are
	         sent; GraphQL replaces the whole record on save, so podtop reads it whole and sends it
	         back with the two changed.
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
	const cli = parseCommandLine(endpointHelp, argv, endpointFlags, 'podtop endpoint');
	const [action, endpointText, ...rest] = cli.input;
	if (action === 'create' || action === 'update') {
		await saveEndpointVerb(
			action,
			action === 'create' ? undefined : endpointText,
			action === 'create' ? [endpointText, ...rest].flatMap(argument => (argument ? [argument] : [])) : rest,
			cli.flags,
		);
		return;
	}

	if (!isSubcommand('endpoint', action) || !endpointText || rest.length > 0) {
		throw new UsageError(subcommandUsage('endpoint', action));
	}

	const {flags} = cli;
	const scale = action === 'scale' ? {workersMin: workers('min', flags.min), workersMax: workers('max', flags.max)} : undefined;
	if (scale && scale.workersMin > scale.workersMax) {
		throw new UsageError(`--min (${scale.workersMin}) cannot be more than --max (${scale.workersMax})`);
	}

	const {target, budget, readOnly, readOnlyReason, auditPath, agent} = readConnectionFlags(flags);
	await withHeadlessEngine(target, {budget, readOnly, readOnlyReason, auditPath, agent, poll: []}, async engine => {
		const endpoint = await writeTarget(engine, 'endpoint', endpointText);
		const endpointId = endpoint.id;
		if (scale) {
			reportWrite(
				await engine.perform('endpoint.scale', {endpointId}, scale),
				flags.json,
				record => `scaled: ${nameWithId(record)} now runs ${record.workersMin ?? '?'} to ${record.workersMax ?? '?'} workers`,
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
					`${nameWithId({id: endpointId, name: record.name ?? ''})} still has workers (min ${record.workersMin ?? '?'}, max ${record.workersMax ?? '?'}); the service deletes only at 0 and 0. First: podtop endpoint scale ${endpointId} --min 0 --max 0`,
				);
			}

			if (!flags.yes) {
				throw new UsageError(`would delete endpoint ${nameWithId({id: endpointId, name: record.name ?? ''})}; add --yes to delete it`);
			}
		}

		reportWrite(await engine.perform('endpoint.delete', {endpointId}, undefined), flags.json, () => `deleted: endpoint ${nameWithId(endpoint)}`);
	});
}

type SaveFlags = Parameters<typeof readConnectionFlags>[0] & {
	readonly json: boolean;
	readonly dryRun: boolean;
	readonly min?: number;
	readonly max?: number;
	readonly name?: string;
	readonly template?: string;
	readonly gpuIds?: string;
	readonly idleTimeout?: string;
	readonly scalerType?: string;
	readonly scalerValue?: string;
	readonly locations?: string;
	readonly networkVolume?: string;
	readonly flashboot?: string;
};

const fieldFlags: Readonly<Record<keyof EndpointFields, string>> = {
	name: '--name',
	templateId: '--template',
	gpuIds: '--gpu-ids',
	workersMin: '--min',
	workersMax: '--max',
	idleTimeout: '--idle-timeout',
	scalerType: '--scaler-type',
	scalerValue: '--scaler-value',
	locations: '--locations',
	networkVolumeId: '--network-volume',
	flashBootType: '--flashboot',
};

/** `podtop endpoint create` and `update`: the fields checked, the changes said, then one save. */
async function saveEndpointVerb(action: 'create' | 'update', endpointId: string | undefined, rest: readonly string[], flags: SaveFlags): Promise<void> {
	if (rest.length > 0 || (action === 'update' && !endpointId)) {
		throw new UsageError(subcommandUsage('endpoint', action));
	}

	const fields: EndpointFields = {
		name: flags.name,
		templateId: flags.template,
		gpuIds: flags.gpuIds,
		workersMin: flags.min === undefined ? undefined : String(flags.min),
		workersMax: flags.max === undefined ? undefined : String(flags.max),
		idleTimeout: flags.idleTimeout,
		scalerType: flags.scalerType,
		scalerValue: flags.scalerValue,
		locations: flags.locations,
		networkVolumeId: flags.networkVolume,
		flashBootType: flags.flashboot,
	};
	const refuse = (problems: EndpointProblems) => {
		const said = Object.entries(problems).map(([field, problem]) => `${fieldFlags[field as keyof EndpointFields]} ${problem}`);
		if (said.length > 0) {
			throw new UsageError(`${said.join('; ')} (nothing was sent)`);
		}
	};

	const {target, budget, readOnly, readOnlyReason, auditPath, agent} = readConnectionFlags(flags);
	if (action === 'create') {
		const {problems, changes} = planEndpoint(fields);
		refuse(problems);
		const record = changes as EndpointInput;
		if (flags.dryRun) {
			process.stdout.write(`${inertJson({mutation: 'saveEndpoint', input: record})}\n`);
			return;
		}

		await withHeadlessEngine(target, {budget, readOnly, readOnlyReason, auditPath, agent, poll: []}, async engine => {
			reportWrite(await engine.perform('endpoint.create', {name: record.name ?? ''}, {record}), flags.json, made => `created: endpoint ${nameWithId(made)}`);
		});
		return;
	}

	await withHeadlessEngine(target, {budget, readOnly, readOnlyReason, auditPath, agent, poll: []}, async engine => {
		const {id} = await writeTarget(engine, 'endpoint', endpointId!);
		const base = await engine.endpointRecord(id);
		if (!base) {
			throw new ApiError('not-found', `no endpoint ${id} in this account`);
		}

		const {problems, changes} = planEndpoint(fields, base);
		refuse(problems);
		if (!changes || Object.keys(changes).length === 0) {
			throw new UsageError(`nothing to change: ${sanitizeLine(base.name ?? id)} already has those values`);
		}

		process.stderr.write(`podtop: ${sanitizeLine(describeChanges(changes, base))}\n`);
		if (flags.dryRun) {
			process.stdout.write(`${inertJson({mutation: 'saveEndpoint', input: {...base, ...changes}})}\n`);
			return;
		}

		reportWrite(await engine.perform('endpoint.update', {endpointId: id}, {changes}), flags.json, saved => `updated: endpoint ${nameWithId(saved)}`);
	});
}
