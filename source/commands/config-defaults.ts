import type {AnyFlags} from 'meow';
import {loadPodtopConfig, PodtopConfigError, sessionProfile, sessionSettings, type PodtopConfig, type UiDefaults} from '../config/podtop-config.js';
import {UsageError} from '../lib/usage-error.js';

/** `~/.config/podtop/config.toml`, or a usage error (exit 2) that names the file and what to fix. */
export function readPodtopConfig(env: NodeJS.ProcessEnv = process.env): PodtopConfig {
	try {
		return loadPodtopConfig(env).config;
	} catch (error) {
		if (error instanceof PodtopConfigError) {
			throw new UsageError(error.message);
		}

		throw error;
	}
}

/** The profile named on a command line already joined (`--profile=NAME`), the last one winning as meow's does. */
export function namedProfile(joinedArgv: readonly string[]): string | undefined {
	const end = joinedArgv.indexOf('--');
	let profile: string | undefined;
	for (const argument of end === -1 ? joinedArgv : joinedArgv.slice(0, end)) {
		if (argument.startsWith('--profile=')) {
			profile = argument.slice('--profile='.length);
		}
	}

	return profile;
}

const uiKeys = ['bell', 'ascii', 'color', 'budget', 'v2Budget', 'agent'] as const satisfies ReadonlyArray<keyof UiDefaults>;

/**
The command's flag definitions with the config file's settings (its defaults, then the profile's
section) as their defaults: a flag given on the command line still wins, as meow gives it.
Commands without `--profile` (`sim`, `completion`) do not read the file.
*/
export function withConfigDefaults<Flags extends AnyFlags>(flags: Flags, joinedArgv: readonly string[], env: NodeJS.ProcessEnv = process.env): Flags {
	if (!('profile' in flags)) {
		return flags;
	}

	const config = readPodtopConfig(env);
	const settings = sessionSettings(config, sessionProfile(config, namedProfile(joinedArgv)));
	// Each flag keeps its type; only its default is the file's (a value of that type: see podtop-config.ts).
	const changed: Record<string, unknown> = {...flags};
	for (const key of uiKeys) {
		const value = settings[key];
		if (value !== undefined && key in flags) {
			changed[key] = {...flags[key], default: value};
		}
	}

	return changed as Flags;
}
