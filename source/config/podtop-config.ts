import {readFileSync} from 'node:fs';
import {homedir} from 'node:os';
import path from 'node:path';
import {readImagesSection, type ImagesSettings} from './images-section.js';
import {parseTomlDocument} from './toml.js';

/** The UI defaults a user sets today by flag (`--no-bell`, `--ascii`, `--no-color`, `--budget`, `--no-agent`). */
export type UiDefaults = {
	readonly bell?: boolean;
	readonly ascii?: boolean;
	readonly color?: boolean;
	readonly budget?: number;
	/** `v2-budget`: the share of each REST v2 window (`--v2-budget`). */
	readonly v2Budget?: number;
	readonly agent?: boolean;
};

/** A `[profile.NAME]` section: the UI defaults for that account, and its safety. */
export type ProfileSettings = Omit<UiDefaults, 'color'> & {
	readonly readOnly?: boolean;
	/** The band colour the header shows for this profile (a colour name or `#rrggbb`). */
	readonly band?: string;
};

export type PodtopConfig = {
	readonly defaults: UiDefaults;
	readonly profiles: Readonly<Record<string, ProfileSettings>>;
	/** `[images]`: where image links in job output may lead besides the public internet (nowhere by default). */
	readonly images: ImagesSettings;
};

/** What applies to one session: the file's defaults, overridden by the profile's section. */
export type SessionSettings = UiDefaults & {readonly readOnly?: boolean; readonly band?: string};

export const emptyConfig: PodtopConfig = {defaults: {}, profiles: {}, images: {allow: []}};

/** The colours a profile's band may be (Ink's names), or `#rrggbb`. */
export const bandColors = ['red', 'green', 'yellow', 'blue', 'magenta', 'cyan', 'white', 'gray'] as const;

/** A config file that cannot be used: the sentence says where and how to fix it. */
export class PodtopConfigError extends Error {
	override readonly name = 'PodtopConfigError';
}

/** `$XDG_CONFIG_HOME/podtop/config.toml`, `~/.config/podtop/config.toml` by default. */
export function defaultPodtopConfigPath(env: NodeJS.ProcessEnv = process.env): string {
	const config = env.XDG_CONFIG_HOME?.startsWith('/') ? env.XDG_CONFIG_HOME : path.join(env.HOME?.startsWith('/') ? env.HOME : homedir(), '.config');
	return path.join(config, 'podtop', 'config.toml');
}

type Table = Record<string, unknown>;
const isTable = (value: unknown): value is Table => typeof value === 'object' && value !== null && !Array.isArray(value) && !(value instanceof Date);

function readUiKey(key: string, value: unknown, where: string): UiDefaults | undefined {
	switch (key) {
		case 'bell':
		case 'ascii':
		case 'color':
		case 'agent': {
			if (typeof value !== 'boolean') {
				throw new PodtopConfigError(`${where}: ${key} must be true or false, got ${JSON.stringify(value)}`);
			}

			return {[key]: value};
		}

		case 'budget': {
			if (typeof value !== 'number' || !(value > 0 && value <= 1)) {
				throw new PodtopConfigError(`${where}: budget must be a share between 0 and 1 (0.05 is 5%), got ${JSON.stringify(value)}`);
			}

			return {budget: value};
		}

		case 'v2-budget': {
			if (typeof value !== 'number' || !(value > 0 && value <= 1)) {
				throw new PodtopConfigError(`${where}: v2-budget must be a share between 0 and 1 (0.5 is half of each window), got ${JSON.stringify(value)}`);
			}

			return {v2Budget: value};
		}

		default: {
			return undefined;
		}
	}
}

const defaultKeys = ['bell', 'ascii', 'color', 'budget', 'v2-budget', 'agent', 'profile', 'images'];
const profileKeys = ['read-only', 'color', 'budget', 'v2-budget', 'bell', 'ascii', 'agent'];

function unknownKey(key: string, where: string, known: readonly string[]): PodtopConfigError {
	return new PodtopConfigError(`${where}: unknown key "${key}"; the keys are ${known.join(', ')} (see the readme's Profiles)`);
}

function readProfile(name: string, table: Table, file: string): ProfileSettings {
	const where = `${file} [profile.${name}]`;
	let settings: ProfileSettings = {};
	for (const [key, value] of Object.entries(table)) {
		if (key === 'read-only') {
			if (typeof value !== 'boolean') {
				throw new PodtopConfigError(`${where}: read-only must be true or false, got ${JSON.stringify(value)}`);
			}

			settings = {...settings, readOnly: value};
		} else if (key === 'color') {
			if (typeof value !== 'string' || !((bandColors as readonly string[]).includes(value) || /^#[\da-f]{6}$/i.test(value))) {
				throw new PodtopConfigError(`${where}: color must be one of ${bandColors.join(', ')} or "#rrggbb", got ${JSON.stringify(value)}`);
			}

			settings = {...settings, band: value};
		} else {
			const read = readUiKey(key, value, where);
			if (!read) {
				throw unknownKey(key, where, profileKeys);
			}

			settings = {...settings, ...read};
		}
	}

	return settings;
}

/**
Reads podtop's own config file: top-level UI defaults (`bell`, `ascii`, `color`, `budget`, `v2-budget`, `agent`)
and `[profile.NAME]` sections (`read-only`, `color` as the header's band, `budget`, `v2-budget`, `bell`, `ascii`,
`agent`), and `[images]` (`allow`). A file that does not parse says the line and column; an unknown key is named with the file.
*/
export function parsePodtopConfig(text: string, file: string): PodtopConfig {
	const parsed = parseTomlDocument(text);
	if ('problem' in parsed) {
		const {line, column, reason} = parsed.problem;
		throw new PodtopConfigError(`${file} does not parse at line ${line}, column ${column}: ${reason}`);
	}

	let defaults: UiDefaults = {};
	let {images} = emptyConfig;
	const profiles: Record<string, ProfileSettings> = {};
	for (const [key, value] of Object.entries(parsed.document)) {
		if (key === 'images') {
			images = readImagesSection(value, file, message => new PodtopConfigError(message));
		} else if (key === 'profile') {
			if (!isTable(value)) {
				throw new PodtopConfigError(`${file}: profile must be a table of sections, written [profile.NAME]`);
			}

			for (const [name, section] of Object.entries(value)) {
				if (!isTable(section)) {
					throw new PodtopConfigError(`${file}: profile.${name} must be a section, written [profile.${name}]`);
				}

				profiles[name] = readProfile(name, section, file);
			}
		} else {
			const read = readUiKey(key, value, file);
			if (!read) {
				throw unknownKey(key, file, defaultKeys);
			}

			defaults = {...defaults, ...read};
		}
	}

	return {defaults, profiles, images};
}

/** The file's settings, or none when there is no file; one that cannot be read or used throws a PodtopConfigError. */
export function loadPodtopConfig(env: NodeJS.ProcessEnv = process.env): {readonly config: PodtopConfig; readonly file: string} {
	const file = defaultPodtopConfigPath(env);
	let text: string;
	try {
		text = readFileSync(file, 'utf8');
	} catch (error) {
		const {code} = error as NodeJS.ErrnoException;
		if (code === 'ENOENT' || code === 'ENOTDIR') {
			return {config: emptyConfig, file};
		}

		throw new PodtopConfigError(`cannot read ${file} (${code ?? 'error'}): check its permissions`);
	}

	return {config: parsePodtopConfig(text, file), file};
}

/** The profile a session's settings come from: the one named, else `default` when the file has a section for it. */
export function sessionProfile(config: PodtopConfig, named: string | undefined): string | undefined {
	return named ?? (config.profiles.default ? 'default' : undefined);
}

/** The file's defaults, overridden by the profile's section (flags override both, later). */
export function sessionSettings(config: PodtopConfig, profile: string | undefined): SessionSettings {
	const section = profile === undefined ? undefined : config.profiles[profile];
	return {...config.defaults, ...section};
}
