import {imageOf, type EndpointSpec} from './endpoint-spec.js';
import type {Random} from './random.js';

export type ReleaseDiff = {readonly field: string; readonly old: unknown; readonly new: unknown};

export type Release = {
	readonly id: string;
	readonly version: number;
	/** Simulated epoch ms. */
	readonly createdAt: number;
	readonly diff: readonly ReleaseDiff[];
};

/** The fields a release lists when they change, named as the service's diff names them. */
const fields: ReadonlyArray<readonly [string, (spec: EndpointSpec) => unknown]> = [
	['template.imageName', imageOf],
	['template.env', spec => Object.fromEntries(spec.env.map(({key, value}) => [key, value]))],
	['templateId', spec => spec.templateId],
	['gpuIds', spec => spec.gpuIds],
	['gpuCount', spec => spec.gpuCount],
	['locations', spec => spec.locations],
	['workers.min', spec => spec.workersMin],
	['workers.max', spec => spec.workersMax],
	['idleTimeout', spec => spec.idleTimeout],
	['flashboot', spec => spec.flashBoot],
	['executionTimeoutMs', spec => spec.executionTimeoutMs],
];

/** What changed between two versions of an endpoint, field by field. */
export function diffOf(before: EndpointSpec, after: EndpointSpec): ReleaseDiff[] {
	return fields.map(([field, read]) => ({field, old: read(before), new: read(after)})).filter(entry => JSON.stringify(entry.old) !== JSON.stringify(entry.new));
}

/** Most releases an endpoint keeps. */
const kept = 50;

/**
An endpoint's releases, newest first: one for the version it was created at, then one each time its version
moves (a v2 PATCH of image, env or template; every GraphQL save), with what changed.
*/
export class ReleaseHistory {
	readonly #releases: Release[] = [];
	readonly #random: Random;

	constructor(spec: EndpointSpec, random: Random) {
		this.#random = random;
		this.#releases.push({id: random.alphanumeric(8), version: spec.version, createdAt: Date.parse(spec.createdAt), diff: []});
	}

	get list(): readonly Release[] {
		return this.#releases;
	}

	record(before: EndpointSpec, after: EndpointSpec, now: number): void {
		if (after.version === before.version) {
			return;
		}

		this.#releases.unshift({id: this.#random.alphanumeric(8), version: after.version, createdAt: now, diff: diffOf(before, after)});
		this.#releases.length = Math.min(this.#releases.length, kept);
	}
}
