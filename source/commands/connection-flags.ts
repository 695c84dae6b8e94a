import type {BudgetSettings} from '../poll/budget-limits.js';
import type {TargetOptions} from '../engine/resolve-target.js';

/** Flags every command that talks to the service shares (meow flag definitions). */
export const connectionFlags = {
	demo: {type: 'boolean', default: false},
	apiUrl: {type: 'string'},
	graphqlUrl: {type: 'string'},
	profile: {type: 'string'},
	endpoints: {type: 'string'},
	budget: {type: 'number', default: 0.1},
	apiKey: {type: 'string'},
} as const;

export const connectionHelp = `
	Connection
	  --demo            Run on the built-in simulator (also when no API key is configured)
	  --api-url         Job API base URL                 [default: https://api.runpod.ai/v2]
	  --graphql-url     GraphQL URL                      [default: https://api.runpod.io/graphql]
	  --profile         Profile in ~/.runpod/config.toml [default: default]
	  --endpoints       Watch only these endpoint ids, comma-separated (default: all)
	  --budget          Share of each published rate limit podtop may use  [default: 0.1]

	The API key comes from RUNPOD_API_KEY or ~/.runpod/config.toml, never from a flag.`;

type Flags = {demo: boolean; apiUrl?: string; graphqlUrl?: string; profile?: string; endpoints?: string; budget: number; apiKey?: string};

export function readConnectionFlags(flags: Flags): {target: TargetOptions; endpointFilter: string[] | undefined; budget: Partial<BudgetSettings>} {
	if (flags.apiKey !== undefined) {
		throw new Error('podtop never takes the API key on the command line (it would show in ps): set RUNPOD_API_KEY or ~/.runpod/config.toml');
	}

	if (!(flags.budget > 0 && flags.budget <= 1)) {
		throw new Error(`--budget must be a share between 0 and 1, got ${flags.budget}`);
	}

	const endpointFilter = flags.endpoints?.split(',').map(id => id.trim()).filter(Boolean);
	return {
		target: {demo: flags.demo, apiUrl: flags.apiUrl, graphqlUrl: flags.graphqlUrl, profile: flags.profile},
		endpointFilter: endpointFilter?.length ? endpointFilter : undefined,
		budget: {share: flags.budget},
	};
}
