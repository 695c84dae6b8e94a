import type {EndpointInput, SavedEndpoint} from '../model/endpoint.js';
import {unknownPoolsProblem} from './gpu-pools.js';

export const scalerTypes = ['QUEUE_DELAY', 'REQUEST_COUNT'] as const;

/** FlashBoot as said (`off`, `on`, `priority`) and as sent. */
export const flashbootModes = {off: 'OFF', on: 'FLASHBOOT', priority: 'PRIORITY_FLASHBOOT'} as const;

/** An endpoint's editable fields as text, from a form or flags; empty means "as it is" (edit) or the default (create). */
export type EndpointFields = {
	readonly name?: string;
	readonly templateId?: string;
	readonly gpuIds?: string;
	readonly workersMin?: string;
	readonly workersMax?: string;
	readonly idleTimeout?: string;
	readonly scalerType?: string;
	readonly scalerValue?: string;
	readonly locations?: string;
	readonly networkVolumeId?: string;
	/** `off`, `on` or `priority`; empty: as it is (edit), or on create the service's default (OFF over v2; GraphQL's `-fb` name rule). */
	readonly flashBootType?: string;
};

export type EndpointProblems = Partial<Record<keyof EndpointFields, string>>;

const whole = (text: string | undefined, min: number, max: number): {value?: number; problem?: string} => {
	const trimmed = (text ?? '').trim();
	if (trimmed === '') {
		return {};
	}

	const value = Number(trimmed);
	return Number.isInteger(value) && value >= min && value <= max ? {value} : {problem: `must be a whole number from ${min} to ${max}`};
};

const list = (text: string | undefined) =>
	(text ?? '')
		.split(',')
		.map(item => item.trim())
		.filter(Boolean);

/**
The changes the fields ask for, checked; `base` is the record they change (undefined: a new
endpoint, which needs a name, a template and GPU pools). Nothing here is sent.
*/
export function planEndpoint(fields: EndpointFields, base?: SavedEndpoint): {problems: EndpointProblems; changes?: Partial<EndpointInput>} {
	const problems: EndpointProblems = {};
	const changes: Record<string, unknown> = {};
	const text = (name: keyof EndpointFields) => fields[name]?.trim() ?? '';
	for (const name of ['name', 'templateId'] as const) {
		if (text(name)) {
			changes[name] = text(name);
		} else if (!base) {
			problems[name] = name === 'name' ? 'is required' : 'is required: the template the workers run';
		}
	}

	const pools = list(fields.gpuIds);
	const unknownPools = unknownPoolsProblem(pools);
	if (unknownPools) {
		problems.gpuIds = unknownPools;
	} else if (pools.length > 0) {
		changes.gpuIds = pools.join(',');
	} else if (!base) {
		problems.gpuIds = 'is required: one or more GPU pools such as ADA_24,AMPERE_48';
	}

	const locations = list(fields.locations);
	if (locations.some(location => !/^[A-Z]{2}(-[A-Z\d-]+)?$/.test(location))) {
		problems.locations = 'is a comma-separated list of regions such as US,EU-RO-1 (empty: any)';
	} else if (fields.locations !== undefined && (base ? locations.join(',') !== (base.locations ?? '') : locations.length > 0)) {
		changes.locations = locations.join(',');
	}

	for (const [name, min, max] of [
		['workersMin', 0, 100],
		['workersMax', 0, 100],
		['idleTimeout', 1, 3600],
		['scalerValue', 1, 10_000],
	] as const) {
		const parsed = whole(fields[name], min, max);
		if (parsed.problem) {
			problems[name] = parsed.problem;
		} else if (parsed.value !== undefined) {
			changes[name] = parsed.value;
		}
	}

	const scaler = text('scalerType');
	if (scaler && !(scalerTypes as readonly string[]).includes(scaler)) {
		problems.scalerType = 'must be QUEUE_DELAY or REQUEST_COUNT';
	} else if (scaler) {
		changes.scalerType = scaler;
	}

	const flashboot = text('flashBootType').toLowerCase();
	if (flashboot && !Object.hasOwn(flashbootModes, flashboot)) {
		problems.flashBootType = 'must be off, on or priority';
	} else if (flashboot) {
		const mode = flashbootModes[flashboot as keyof typeof flashbootModes];
		// On an edit, a record that says nothing of FlashBoot has it off.
		if (!base || mode !== (base.flashBootType ?? 'OFF')) {
			changes.flashBootType = mode;
		}
	}

	if (fields.networkVolumeId !== undefined) {
		changes.networkVolumeId = text('networkVolumeId') || null;
	}

	const min = (changes.workersMin as number | undefined) ?? base?.workersMin ?? 0;
	const max = (changes.workersMax as number | undefined) ?? base?.workersMax ?? 3;
	if (min > max && !problems.workersMin && !problems.workersMax) {
		problems.workersMin = `(${min}) cannot be more than the maximum (${max})`;
	}

	if (Object.keys(problems).length > 0) {
		return {problems};
	}

	// On an edit, only what differs from the record is a change.
	const differs = Object.fromEntries(Object.entries(changes).filter(([name, value]) => !base || (base as Record<string, unknown>)[name] !== value));
	return {problems, changes: differs};
}

/** `workersMax 3 → 6 · idleTimeout 5 → 30`: what a save changes, for the review. */
export function describeChanges(changes: Partial<EndpointInput>, base?: SavedEndpoint): string {
	const shown = (value: unknown) => (typeof value === 'string' || typeof value === 'number' ? String(value) : '–');
	return Object.entries(changes)
		.map(([name, value]) => (base ? `${name} ${shown((base as Record<string, unknown>)[name])} → ${shown(value)}` : `${name} ${shown(value)}`))
		.join(' · ');
}
