import {defaultAuditPath} from '../engine/audit-log.js';
import type {TargetOptions} from '../engine/resolve-target.js';
import {sessionProfile, sessionSettings, type PodtopConfig} from '../config/podtop-config.js';
import {UsageError} from '../lib/usage-error.js';
import type {BudgetSettings} from '../poll/budget-limits.js';
import {readPodtopConfig} from './config-defaults.js';
import type {CompletableFlags} from './value-kind.js';

/** Flags every command that talks to the service shares (meow flag definitions). */
export const connectionFlags = {
	demo: {type: 'boolean', default: false},
	apiUrl: {type: 'string'},
	graphqlUrl: {type: 'string'},
	restUrl: {type: 'string'},
	managementApi: {type: 'string', complete: {choices: ['auto', 'v2', 'graphql']}},
	profile: {type: 'string', complete: 'profile'},
	endpoints: {type: 'string', complete: 'endpoints'},
	budget: {type: 'number', default: 0.1},
	v2Budget: {type: 'number', default: 0.5},
	readOnly: {type: 'boolean', default: false},
	write: {type: 'boolean', default: false},
	auditLog: {type: 'string', complete: 'file'},
	// Only to refuse it with a sentence (the key would show in ps): completion never offers it.
	apiKey: {type: 'string', hidden: true},
	agent: {type: 'boolean', default: true},
} as const satisfies CompletableFlags;

/** The connection flags that matter to a command that only reads history: which account (the file is named by it). */
export const readerConnectionFlags = {
	demo: connectionFlags.demo,
	apiUrl: connectionFlags.apiUrl,
	graphqlUrl: connectionFlags.graphqlUrl,
	profile: connectionFlags.profile,
	apiKey: connectionFlags.apiKey,
} as const;

/** The connection flags of a command that reads the account and never writes (`snapshot`, `watch`, `export`): no `--write`. */
export const readingConnectionFlags = (({write: _write, ...reading}) => reading)(connectionFlags);

const writeHelp = `
	  --write           Send writes for a profile marked read-only in ~/.config/podtop/config.toml`;

const connectionHelpWith = (write: string) => `
	Connection
	  --demo            Run on the built-in simulator (also when no API key is configured)
	  --api-url         Job API base URL                 [default: https://api.runpod.ai/v2]
	  --rest-url        REST v2 origin (also RUNPOD_API_BASE_URL)  [default: https://api.runpod.io]
	  --graphql-url     GraphQL URL                      [default: https://api.runpod.io/graphql]
	  --management-api  auto, v2 or graphql: v2 unless the service has none  [default: auto]
	  --profile         Profile in ~/.runpod/config.toml [default: default]
	  --endpoints       Watch only these endpoint ids, comma-separated (default: all)
	  --budget          Share of each published rate limit podtop may use  [default: 0.1]
	  --v2-budget       Share of each REST v2 window (minute, hour, day) podtop may use  [default: 0.5]
	  --read-only       Never send a write (also PODTOP_READ_ONLY=1); write verbs exit 6${write}
	  --audit-log       Where each write is recorded  [default: $XDG_STATE_HOME/podtop/audit.jsonl]
	  --no-agent        Poll on your own even when \`podtop agent\` serves this account on this host

	The API key comes from RUNPOD_API_KEY or ~/.runpod/config.toml (a --profile named always from
	its own section), never from a flag. Defaults for these flags, and per-profile settings, come
	from ~/.config/podtop/config.toml (flags win).`;

export const connectionHelp = connectionHelpWith(writeHelp);

/** The help of `readingConnectionFlags`. */
export const readingConnectionHelp = connectionHelpWith('');

type Flags = {
	demo: boolean;
	apiUrl?: string;
	graphqlUrl?: string;
	restUrl?: string;
	managementApi?: string;
	profile?: string;
	endpoints?: string;
	budget: number;
	v2Budget?: number;
	readOnly: boolean;
	write?: boolean;
	auditLog?: string;
	apiKey?: string;
	agent: boolean;
};

export type Connection = {
	readonly target: TargetOptions;
	readonly endpointFilter: string[] | undefined;
	readonly budget: Partial<BudgetSettings>;
	readonly readOnly: boolean;
	/** Why read-only when a profile made it so, and how to write (the refusals say it). */
	readonly readOnlyReason?: string;
	/** The profile in use (named, or `default` when the config file has a section for it), for the header. */
	readonly profile?: string;
	/** The profile's band colour in the header (never the only sign: the name is written too). */
	readonly band?: string;
	readonly auditPath: string;
	/** Attach to an agent on this host when one serves the account (the dashboard, watch, snapshot). */
	readonly agent: boolean;
	/** config.toml `[images] allow`: where image links in job output may lead besides the public internet. */
	readonly imageAllow: readonly string[];
};

const truthy = (value: string | undefined) => value !== undefined && value !== '' && value !== '0' && value.toLowerCase() !== 'false';

/**
The connection a command's flags ask for. A profile marked `read-only = true` in podtop's config
file opens read-only unless `--write` is given; `--read-only` and PODTOP_READ_ONLY always hold.
*/
export function readConnectionFlags(flags: Flags, env: NodeJS.ProcessEnv = process.env, config: PodtopConfig = readPodtopConfig(env)): Connection {
	if (flags.apiKey !== undefined) {
		throw new UsageError('podtop never takes the API key on the command line (it would show in ps): set RUNPOD_API_KEY or ~/.runpod/config.toml');
	}

	if (!(flags.budget > 0 && flags.budget <= 1)) {
		throw new UsageError(`--budget must be a share between 0 and 1, got ${flags.budget}`);
	}

	const v2Budget = flags.v2Budget ?? 0.5;
	if (!(v2Budget > 0 && v2Budget <= 1)) {
		throw new UsageError(`--v2-budget must be a share between 0 and 1, got ${v2Budget}`);
	}

	const forced = flags.readOnly || truthy(env.PODTOP_READ_ONLY);
	if (flags.write && forced) {
		throw new UsageError(`--write and ${flags.readOnly ? '--read-only' : 'PODTOP_READ_ONLY'} say opposite things: give one`);
	}

	const profile = sessionProfile(config, flags.profile);
	const settings = sessionSettings(config, profile);
	const byProfile = settings.readOnly === true && !flags.write;
	const endpointFilter = flags.endpoints
		?.split(',')
		.map(id => id.trim())
		.filter(Boolean);
	return {
		target: {
			demo: flags.demo,
			apiUrl: flags.apiUrl,
			graphqlUrl: flags.graphqlUrl,
			restUrl: flags.restUrl,
			managementApi: flags.managementApi,
			profile: flags.profile,
			env,
		},
		endpointFilter: endpointFilter?.length ? endpointFilter : undefined,
		budget: {share: flags.budget, serviceShare: v2Budget},
		readOnly: forced || byProfile,
		readOnlyReason: !forced && byProfile ? `profile "${profile}" is read-only; add --write to write` : undefined,
		profile,
		band: settings.band,
		auditPath: flags.auditLog ?? defaultAuditPath(env),
		agent: flags.agent,
		imageAllow: config.images.allow,
	};
}
