import type {Random} from './random.js';

/** A UUID-shaped id from the seeded generator. */
function uuid(random: Random): string {
	return `${random.hex(8)}-${random.hex(4)}-4${random.hex(3)}-${random.pick(['8', '9', 'a', 'b'])}${random.hex(3)}-${random.hex(12)}`;
}

/** Job ids look like the service's: a UUID with a short region suffix; `/runsync` ids start with `sync-`. */
export function createJobId(random: Random, sync: boolean): string {
	return `${sync ? 'sync-' : ''}${uuid(random)}-u1`;
}

/** Endpoint ids are 14 lowercase alphanumerics, like the service's. */
export function createEndpointId(random: Random): string {
	return random.alphanumeric(14);
}

export function createWorkerId(random: Random): string {
	return random.alphanumeric(14);
}
