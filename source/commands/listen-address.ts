import {UsageError} from '../lib/usage-error.js';

/** Where `podtop export` serves /metrics unless told otherwise. */
export const defaultListen = '127.0.0.1:9469';

/** `--listen HOST:PORT` (`[::1]:9469` for IPv6, `:9469` for loopback) as a host and a port. */
export function listenAddress(text: string, flag = '--listen'): {readonly host: string; readonly port: number} {
	const match = /^(?:\[([^\]]+)]|([^:[\]]*)):(\d+)$/.exec(text.trim());
	if (!match) {
		throw new UsageError(`${flag} takes HOST:PORT (like 127.0.0.1:9469 or [::1]:9469), got "${text}"`);
	}

	const port = Number(match[3]);
	if (port > 65_535) {
		throw new UsageError(`${flag}: port ${match[3]} is out of range (0 to 65535)`);
	}

	return {host: match[1] ?? (match[2] || '127.0.0.1'), port};
}
