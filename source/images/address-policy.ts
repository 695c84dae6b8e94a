import {BlockList, isIP} from 'node:net';

/** What the operator allows image links to reach beyond the public internet. */
export type ImagePolicy = {
	/** From config.toml `[images] allow`: addresses, CIDR ranges and host names. */
	readonly allow?: readonly string[];
	/**
	Hosts (`host:port` as a URL says it) podtop was pointed at by the operator, not by service data:
	the API's (`--api-url`, the demo's simulator). Links to exactly these are fetched wherever they are.
	*/
	readonly trustedHosts?: () => readonly string[];
};

type Range = readonly [address: string, prefix: number];

/** The addresses no image link may reach unless allowed, by what they are (IPv4-mapped IPv6 addresses are checked as IPv4). */
const kinds: ReadonlyArray<readonly [kind: string, v4: readonly Range[], v6: readonly Range[]]> = [
	['an unspecified', [['0.0.0.0', 8]], [['::', 128]]],
	['a loopback', [['127.0.0.0', 8]], [['::1', 128]]],
	[
		'a private',
		[
			['10.0.0.0', 8],
			['172.16.0.0', 12],
			['192.168.0.0', 16],
		],
		[['fec0::', 10]],
	],
	['a link-local', [['169.254.0.0', 16]], [['fe80::', 10]]],
	['a unique-local', [], [['fc00::', 7]]],
	['a shared (CGNAT)', [['100.64.0.0', 10]], []],
	['a multicast', [['224.0.0.0', 4]], [['ff00::', 8]]],
	[
		'a reserved',
		[
			['240.0.0.0', 4],
			['192.0.0.0', 24],
			['198.18.0.0', 15],
		],
		// IPv4-compatible addresses (deprecated; :: and ::1 are named above).
		[['::', 96]],
	],
];

const lists = kinds.map(([kind, v4, v6]) => {
	const list = new BlockList();
	for (const [address, prefix] of v4) {
		list.addSubnet(address, prefix, 'ipv4');
	}

	for (const [address, prefix] of v6) {
		list.addSubnet(address, prefix, 'ipv6');
	}

	return [kind, list] as const;
});

const familyOf = (address: string) => (isIP(address) === 6 ? 'ipv6' : 'ipv4');

/** What kind of address it is when it is not on the public internet (`a loopback`, `a private`…), else undefined. */
export function addressKind(address: string): string | undefined {
	if (isIP(address) === 0) {
		return undefined;
	}

	return lists.find(([, list]) => list.check(address, familyOf(address)))?.[0];
}

/**
Decides, for the address a link's host resolved to (or that it is), whether it may be reached: a
public address always; a loopback, private, link-local, unique-local, CGNAT, unspecified, multicast or
reserved one only when `allow` names the host, the address, or a range holding it. Returns the
sentence that says why not, or undefined.
*/
export function createAddressCheck(policy: ImagePolicy): (host: string, address: string) => string | undefined {
	const ranges = new BlockList();
	const names = new Set<string>();
	for (const entry of policy.allow ?? []) {
		const [address, prefix] = entry.split('/');
		if (prefix !== undefined) {
			ranges.addSubnet(address!, Number(prefix), familyOf(address!));
		} else if (isIP(entry) > 0) {
			ranges.addAddress(entry, familyOf(entry));
		} else {
			names.add(entry.toLowerCase());
		}
	}

	return (host, address) => {
		const kind = addressKind(address);
		if (kind === undefined || names.has(host.toLowerCase()) || ranges.check(address, familyOf(address))) {
			return undefined;
		}

		const subject = host === address ? `${address} is` : `${host} is ${address},`;
		return `picture not fetched: ${subject} ${kind} address (allow it in config.toml [images])`;
	};
}
