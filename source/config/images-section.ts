import {isIP} from 'node:net';

/** An `[images] allow` entry that is none of an address, a CIDR range or a host name: the sentence says so; else undefined. */
export function allowEntryProblem(entry: string): string | undefined {
	const [address, prefix, extra] = entry.split('/');
	if (extra === undefined && prefix !== undefined) {
		const bits = isIP(address!) === 4 ? 32 : isIP(address!) === 6 ? 128 : 0;
		return bits > 0 && /^\d{1,3}$/.test(prefix) && Number(prefix) <= bits ? undefined : `"${entry}" is not a CIDR range (10.0.0.0/8, fd00::/8)`;
	}

	return extra === undefined && (isIP(entry) > 0 || /^[a-z\d]([a-z\d-]*[a-z\d])?(\.[a-z\d]([a-z\d-]*[a-z\d])?)*$/i.test(entry))
		? undefined
		: `"${entry}" is not an address, a CIDR range or a host name`;
}

/** The `[images]` section: where image links in job output may lead besides the public internet. */
export type ImagesSettings = {
	/** Addresses, CIDR ranges and host names allowed though they are loopback, private, link-local… */
	readonly allow: readonly string[];
};

/** Reads `[images]` (`allow = ["10.0.0.0/8", "images.corp.example"]`); anything else is named with the file. */
export function readImagesSection(value: unknown, file: string, error: (message: string) => Error): ImagesSettings {
	if (typeof value !== 'object' || value === null || Array.isArray(value) || value instanceof Date) {
		throw error(`${file}: images must be a section, written [images]`);
	}

	let allow: string[] = [];
	for (const [key, entries] of Object.entries(value)) {
		if (key !== 'allow') {
			throw error(`${file} [images]: unknown key "${key}"; the key is allow (see the readme's Pictures in job output)`);
		}

		if (!Array.isArray(entries) || entries.some(entry => typeof entry !== 'string')) {
			throw error(`${file} [images]: allow must be a list of addresses, CIDR ranges and host names, for example ["10.0.0.0/8", "images.corp.example"]`);
		}

		const problem = (entries as string[]).map(entry => allowEntryProblem(entry)).find(Boolean);
		if (problem) {
			throw error(`${file} [images]: allow: ${problem}`);
		}

		allow = entries as string[];
	}

	return {allow};
}
