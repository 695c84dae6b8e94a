import type {LookupAddress} from 'node:dns';
import {lookup} from 'node:dns/promises';
import {isIP, type LookupFunction} from 'node:net';
import {buildConnector} from 'undici';
import {createAddressCheck, type ImagePolicy} from './address-policy.js';
import {ImageError} from './image-error.js';

/**
undici's connector for image links, that connects only where `policy` allows: a host that is an
address is checked as it is; a name is resolved here, every address it has is checked, and the socket
connects to those checked addresses (no second lookup, so nothing can change between the check and the
connection). Every redirect connects through it again. A refusal is an `ImageError` ('refused') that
says why, before anything is sent.
*/
export function guardedConnector(policy: ImagePolicy, timeout: number): buildConnector.connector {
	const check = createAddressCheck(policy);
	const guardedLookup: LookupFunction = (hostname, options, callback) => {
		void (async () => {
			let addresses: LookupAddress[];
			try {
				addresses = await lookup(hostname, {...options, all: true});
			} catch (error) {
				callback(error as NodeJS.ErrnoException, '', 0);
				return;
			}

			const refusal = addresses.map(({address}) => check(hostname, address)).find(Boolean);
			if (refusal) {
				callback(new ImageError('refused', refusal), '', 0);
			} else if (options.all) {
				(callback as unknown as (error: null, addresses: LookupAddress[]) => void)(null, addresses);
			} else {
				callback(null, addresses[0]!.address, addresses[0]!.family);
			}
		})();
	};

	const connect = buildConnector({timeout, lookup: guardedLookup});
	const plain = buildConnector({timeout});
	return (options, callback) => {
		const host = options.hostname.replace(/^\[(.*)]$/, '$1');
		const trusted = policy.trustedHosts?.().includes(options.port ? `${options.hostname}:${options.port}` : options.hostname) ?? false;
		const refusal = trusted || isIP(host) === 0 ? undefined : check(host, host);
		if (refusal) {
			callback(new ImageError('refused', refusal), null);
			return;
		}

		if (trusted) {
			// The operator's own API host: connected as podtop connects to it, wherever it is.
			plain(options, callback);
			return;
		}

		connect(options, callback);
	};
}
