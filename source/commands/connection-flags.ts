import {defaultAuditPath} from '../engine/audit-log.js';
import type {TargetOptions} from '../engine/resolve-target.js';
import {UsageError} from '../lib/usage-error.js';
import type {BudgetSettings} from '../poll/budget-limits.js';
import type {CompletableFlags} from './value-kind.js';

/** Flags every command that talks to the service shares (meow flag definitions). */
export const connectionFlags = {
	demo: {type: 'boolean', default: false},
	apiUrl: {type: 'string'},
	graphqlUrl: {type: 'string'},
	profile: {type: 'string', complete: 'profile'},
	endpoints: {type: 'string', complete: 'endpoints'},
	budget: {type: 'number', default: 0.1},
	readOnly: {type: 'boolean', default: false},
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

export const connectionHelp = `
	Connection
	  --demo            Run on the built-in simulator (also when no API key is configured)
	  --api-url         Job API base URL                 [default: https://api.runpod.ai/v2]
	  --graphql-url     GraphQL URL                      [default: https://api.runpod.io/graphql]
	  --profile         Profile in ~/.runpod/config.toml [default: default]
	  --endpoints       Watch only these endpoint ids, comma-separated (default: all)
	  --budget          Share of each published rate limit podtop may use  [default: 0.1]
	  --read-only       Never send a write (also PODTOP_READ_ONLY=1); write verbs exit 6
	  --audit-log       Where each write is recorded  [default: $XDG_STATE_HOME/podtop/audit.jsonl]
	  --no-agent        Poll on your own even when \`podtop agent\` serves this account on this host

	The API key comes from RUNPOD_API_KEY or ~/.runpod/config.toml, never from a flag.`;

type Flags = {
	demo: boolean;
	apiUrl?: string;
	graphqlUrl?: string;
	profile?: string;
	endpoints?: string;
	budget: number;
	readOnly: boolean;
	auditLog?: string;
	apiKey?: string;
	agent: boolean;
};

export type Connection = {
	readonly target: TargetOptions;
	readonly endpointFilter: string[] | undefined;
	readonly budget: Partial<BudgetSettings>;
	readonly readOnly: boolean;
	readonly auditPath: string;
	/** Attach to an agent on this host when one serves the account (the dashboard, watch, snapshot). */
	readonly agent: boolean;
};

const truthy = (value: string | undefined) => value !== undefined && value !== '' && value !== '0' && value.toLowerCase() !== 'false';

export function readConnectionFlags(flags: Flags, env: NodeJS.ProcessEnv = process.env): Connection {
	if (flags.apiKey !== undefined) {
		throw new UsageError('podtop never takes the API key on the command line (it would show in ps): set RUNPOD_API_KEY or ~/.runpod/config.toml');
	}

	if (!(flags.budget > 0 && flags.budget <= 1)) {
		throw new UsageError(`--budget must be a share between 0 and 1, got ${flags.budget}`);
	}

	const endpointFilter = flags.endpoints
		?.split(',')
		.map(id => id.trim())
		.filter(Boolean);
	return {
		target: {demo: flags.demo, apiUrl: flags.apiUrl, graphqlUrl: flags.graphqlUrl, profile: flags.profile},
		endpointFilter: endpointFilter?.length ? endpointFilter : undefined,
		budget: {share: flags.budget},
		readOnly: flags.readOnly || truthy(env.PODTOP_READ_ONLY),
		auditPath: flags.auditLog ?? defaultAuditPath(env),
		agent: flags.agent,
	};
}
