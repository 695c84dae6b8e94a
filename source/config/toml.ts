/**
Reads the small TOML subset the official tools write to `~/.runpod/config.toml`: top-level and
`[section]` string keys (`api_key = "..."`, `apikey = '...'`). Anything else is ignored.
*/
export function parseSimpleToml(text: string): Record<string, Record<string, string>> {
	const result: Record<string, Record<string, string>> = {'': {}};
	let section = '';
	for (const rawLine of text.split(/\r?\n/)) {
		const line = rawLine.trim();
		if (!line || line.startsWith('#')) {
			continue;
		}

		const header = /^\[\s*([^\]]+?)\s*]$/.exec(line);
		if (header) {
			section = header[1]!.replaceAll(/^["']|["']$/g, '');
			result[section] ??= {};
			continue;
		}

		const pair = /^([\w.-]+)\s*=\s*(?:"((?:[^"\\]|\\.)*)"|'([^']*)')\s*(?:#.*)?$/.exec(line);
		if (pair) {
			const value = pair[2] === undefined ? pair[3]! : pair[2].replaceAll(/\\(["\\])/g, '$1');
			result[section]![pair[1]!] = value;
		}
	}

	return result;
}
