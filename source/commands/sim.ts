import {readFileSync} from 'node:fs';
import {startSimulator} from '../sim/start-simulator.js';
import {parseFaults, type FaultSpec} from '../sim/faults.js';
import {parseRestQuota, type RestQuota} from '../sim/rest/rate-windows.js';
import {describeJsonError} from '../format/json-error.js';
import {formatSpan, parseSpan} from '../lib/time-spec.js';
import {UsageError} from '../lib/usage-error.js';
import {parseCommandLine} from './parse-command-line.js';
import {untilSignal} from './until-signal.js';
import {commandFlags} from './command-flags.js';

export const simHelp = `
	Usage
	  $ podtop sim [options]

	Serves a faithful local simulation of the service until Ctrl-C (SIGINT) or SIGTERM:
	  the job API at      http://HOST:PORT/v2/<endpoint_id>/{run,runsync,status,status-sync,
	                      stream,cancel,retry,purge-queue,health}
	  REST API v2 at      http://HOST:PORT/v2/{pods,serverless,catalog,...}   (key as Bearer)
	  the GraphQL API at  http://HOST:PORT/graphql   (key as Bearer or ?api_key=)
	  introspection at    http://HOST:PORT/__sim/{stats,endpoints,faults}   (same key)
	  the simulated past  http://HOST:PORT/__sim/past   (with --past; NDJSON, same key)

	Options
	  --host               Interface to listen on                      [default: 127.0.0.1]
	  --port               Port to listen on; 0 picks a free one       [default: 8787]
	  --api-key            Key clients must send (a random one when absent).
	                       A flag shows in ps to every user of the machine:
	                       prefer PODTOP_SIM_API_KEY=KEY in the environment
	  --seed               Seed for the fleet, ids and behaviour       [default: 1]
	  --speed              Simulated time runs X times faster (job run
	                       times, retention, webhook spacing, idle
	                       timeouts); rate-limit windows stay real time [default: 1]
	  --rate-limit-scale   Multiply every rate limit, e.g. 0.01 to hit
	                       them cheaply in tests                       [default: 1]
	  --worker-allowance   Requests per 10 s each running worker adds
	                       to an endpoint's limits                     [default: 50]
	  --endpoints          Number of account endpoints in the fleet,
	                       up to 1000                                  [default: 9]
	  --pods               Number of pods in the fleet, up to 10000    [default: 12]
	  --graphql-rate       GraphQL requests per second per key; 429
	                       above it                                    [default: 5]
	  --v2-quota           REST v2 requests per key owner per minute/hour/
	                       day, on the simulated clock; 429 with
	                       Retry-After above it                  [default: 60/3000/50000]
	  --graphql            on, or retired: GraphQL answers 410 Gone, as the
	                       service's will once it is retired       [default: on]
	  --no-load            Turn off the background load generator
	  --faults             Faults to inject from the start: JSON (one object or a
	                       list) or @file.json. Each: kind status|reset|malformed|
	                       truncated|latency|slow-body|edge, and optionally operation,
	                       endpoint, status, retryAfter, delayMs, jitterMs, share
	                       (0–1) or count. The same at run time: POST /__sim/faults
	  --past               Simulate this much of the fleet's past first, as
	                       fast as it runs (e.g. 6h, up to 7d): the clock
	                       starts that far back, requests wait until it is
	                       back at now, and GET /__sim/past gives what a
	                       client polling it would have seen, one JSON line
	                       per moment (health every 15 s, pods and GPU types
	                       every 30 s, endpoints every 60 s)

	Keys are accepted as "Authorization: Bearer KEY" or "Authorization: KEY".
	PODTOP_SIM_DEV_KEY=KEY adds a team Dev key: it may do everything but read
	billing (REST v2 /billing answers it 403).

	Examples
	  $ PODTOP_SIM_API_KEY=test-key podtop sim --port 8787
	  $ PODTOP_SIM_API_KEY=test-key podtop sim --past 6h
	  $ curl -H 'Authorization: Bearer test-key' http://127.0.0.1:8787/v2/black-forest-labs-flux-1-schnell/health
`;

/**
The largest fleet the simulator serves: the benchmarks' (a week of 1,000 endpoints and 10,000 pods), what
it is built and measured for. A million endpoints had taken 1.9 GB in 30 s before it answered.
*/
const largestFleet = {endpoints: 1000, pods: 10_000} as const;

function positive(name: string, value: number): number {
	if (!Number.isFinite(value) || value <= 0) {
		throw new UsageError(`--${name} must be a positive number, got ${value}`);
	}

	return value;
}

export async function runSim(argv: readonly string[]): Promise<void> {
	const cli = parseCommandLine(simHelp, argv, commandFlags.sim, 'podtop sim');
	const {flags} = cli;
	if (!Number.isInteger(flags.port) || flags.port < 0 || flags.port > 65_535) {
		throw new UsageError(`--port must be an integer from 0 to 65535, got ${flags.port}`);
	}

	for (const name of ['endpoints', 'pods'] as const) {
		if (!Number.isInteger(flags[name]) || flags[name] < 0 || flags[name] > largestFleet[name]) {
			throw new UsageError(`--${name} must be a whole number from 0 to ${largestFleet[name]}, got ${flags[name]}`);
		}
	}

	if (flags.apiKey !== undefined) {
		process.stderr.write('podtop: --api-key is visible to every user of this machine (ps); PODTOP_SIM_API_KEY=KEY keeps it out of sight\n');
	}

	const faults = flags.faults === undefined ? undefined : readFaults(flags.faults);
	const past = flags.past === undefined ? undefined : readPast(flags.past);
	const sim = await startSimulator({
		faults,
		host: flags.host,
		port: flags.port,
		apiKey: flags.apiKey ?? (process.env.PODTOP_SIM_API_KEY?.trim() || undefined),
		devApiKey: process.env.PODTOP_SIM_DEV_KEY?.trim() || undefined,
		seed: flags.seed,
		speed: positive('speed', flags.speed),
		rateLimitScale: positive('rate-limit-scale', flags.rateLimitScale),
		workerAllowance: flags.workerAllowance,
		endpointCount: flags.endpoints,
		podCount: flags.pods,
		graphqlRate: positive('graphql-rate', flags.graphqlRate),
		restQuota: readQuota(flags.v2Quota),
		graphql: readGraphql(flags.graphql),
		load: flags.load,
		past,
	});
	await sim.present;
	const figures = sim.pastFigures();
	const lines = [
		`podtop simulator listening on ${sim.url}`,
		`  job API   ${sim.url}/v2/<endpoint_id>/...`,
		`  REST v2   ${sim.url}/v2/{pods,serverless,catalog,...}`,
		`  GraphQL   ${sim.url}/graphql`,
		`  api key   ${sim.apiKey}`,
		`  endpoints ${sim.endpoints.map(endpoint => `${endpoint.id} (${endpoint.name})`).join('\n            ')}`,
		...(figures && past
			? [
					`  past      ${formatSpan(past)} simulated in ${(figures.realMs / 1000).toFixed(1)} s: ${figures.observations} observations (${(figures.bytes / 1e6).toFixed(1)} MB) at ${sim.url}/__sim/past`,
				]
			: []),
		'Ctrl-C to stop.',
	];
	process.stdout.write(`${lines.join('\n')}\n`);

	await untilSignal();
	await sim.close();
	process.stdout.write('simulator stopped\n');
}

/** `--graphql on|retired`. */
function readGraphql(value: string): 'on' | 'retired' {
	if (value !== 'on' && value !== 'retired') {
		throw new UsageError(`--graphql takes on or retired, got "${value}"`);
	}

	return value;
}

/** `--v2-quota 60/3000/50000`, checked before anything starts. */
function readQuota(value: string): RestQuota {
	const quota = parseRestQuota(value);
	if (typeof quota === 'string') {
		throw new UsageError(`--v2-quota takes ${quota}`);
	}

	return quota;
}

/** The longest past `--past` takes: a week runs in minutes. */
const longestPastMs = 7 * 86_400_000;

/** `--past 6h`: a span, checked before anything starts. */
function readPast(value: string): number {
	const span = parseSpan(value);
	if (span === undefined || span <= 0 || span > longestPastMs) {
		throw new UsageError(`--past takes a span from 1s to 7d, like 6h, 90m or 1d, got "${value}"`);
	}

	return span;
}

/** `--faults JSON` or `--faults @file.json`, checked before anything starts. */
function readFaults(value: string): FaultSpec[] {
	let text = value;
	if (value.startsWith('@')) {
		try {
			text = readFileSync(value.slice(1), 'utf8');
		} catch (error) {
			throw new UsageError(`cannot read ${value.slice(1)}: ${(error as NodeJS.ErrnoException).code ?? String(error)}`);
		}
	}

	let parsed: unknown;
	try {
		parsed = JSON.parse(text);
	} catch (error) {
		throw new UsageError(
			`--faults${value.startsWith('@') ? ` (${value.slice(1)})` : ''} is not valid JSON (${describeJsonError(text, error)}); it is one fault or a list, e.g. '[{"kind": "status", "status": 503, "share": 0.1}]', or @file.json`,
		);
	}

	const faults = parseFaults(parsed);
	if (typeof faults === 'string') {
		throw new UsageError(`--faults: ${faults}`);
	}

	return faults;
}
