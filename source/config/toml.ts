import {parse, TomlError} from 'smol-toml';

export type ConfigSections = Record<string, Record<string, string>>;

/** Where a config file stops parsing, and why (the reason only: the file's text may hold a key). */
export type TomlProblem = {readonly line: number; readonly column: number; readonly reason: string};

/** A TOML document, or where it stops parsing and why (the reason only: smol-toml's message goes on to quote the file). */
export function parseTomlDocument(text: string): {readonly document: Record<string, unknown>} | {readonly problem: TomlProblem} {
	try {
		return {document: parse(text)};
	} catch (error) {
		if (error instanceof TomlError) {
			const reason = (error.message.split('\n')[0] ?? 'invalid TOML').replace(/^Invalid TOML document: /, '');
			return {problem: {line: error.line, column: error.column, reason}};
		}

		throw error;
	}
}

/**
Reads `~/.runpod/config.toml` with a real TOML parser: top-level string keys under `''` (runpodctl's
`apikey`) and each table's string keys (runpod-python's `[default] api_key`). Other values are
ignored; a file that does not parse says where.
*/
export function parseConfigToml(text: string): {readonly sections: ConfigSections} | {readonly problem: TomlProblem} {
	const parsed = parseTomlDocument(text);
	if ('problem' in parsed) {
		return parsed;
	}

	const {document} = parsed;

	const strings = (table: Record<string, unknown>) =>
		Object.fromEntries(Object.entries(table).flatMap(([name, value]) => (typeof value === 'string' ? [[name, value]] : [])));
	const sections: ConfigSections = {'': strings(document)};
	for (const [name, value] of Object.entries(document)) {
		if (typeof value === 'object' && value !== null && !Array.isArray(value) && !(value instanceof Date)) {
			sections[name] = strings(value as Record<string, unknown>);
		}
	}

	return {sections};
}
