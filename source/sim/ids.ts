import {randomBytes} from 'node:crypto';
import type {Random} from './random.js';

/** A UUID-shaped id from the seeded generator. */
function uuid(random: Random): string {
	return `${random.hex(8)}-${random.hex(4)}-4${random.hex(3)}-${random.pick(['8', '9', 'a', 'b'])}${random.hex(3)}-${random.hex(12)}`;
}

/** Job ids look like the service's: a UUID with a short region suffix; `/runsync` ids start with `sync-`. */
export function createJobId(random: Random, sync: boolean): string {
	return `${sync ? 'sync-' : ''}${uuid(random)}-u1`;
}

/**
The id of a job a client sent: random, not from the seed. Every demo podtop runs the same seeded world;
a job sent in one of them gets an id none of the others' gives (its load draws from the seed), so
`podtop job <id>` in another is 404, never someone else's job.
*/
export function createClientJobId(sync: boolean): string {
	const hex = randomBytes(16).toString('hex');
	const variant = '89ab'[Number.parseInt(hex[12]!, 16) % 4]!;
	return `${sync ? 'sync-' : ''}${hex.slice(0, 8)}-${hex.slice(8, 12)}-4${hex.slice(13, 16)}-${variant}${hex.slice(16, 19)}-${hex.slice(19, 31)}-u1`;
}

/** Endpoint ids are 14 lowercase alphanumerics, like the service's. */
export function createEndpointId(random: Random): string {
	return random.alphanumeric(14);
}

export function createWorkerId(random: Random): string {
	return random.alphanumeric(14);
}
