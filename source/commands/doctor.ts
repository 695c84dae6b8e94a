import {agentSecret} from '../api/agent-handshake.js';
import {agentSocketCandidates} from '../api/agent-protocol.js';
import {redact} from '../api/redact.js';
import {defaultConfigPath} from '../config/api-key.js';
import {defaultPodtopConfigPath, parsePodtopConfig, PodtopConfigError} from '../config/podtop-config.js';
import {agentCheck} from '../doctor/agent-check.js';
import {anyFailed, checkResult, type CheckResult} from '../doctor/check.js';
import {doctorText} from '../doctor/doctor-text.js';
import {historyCheck} from '../doctor/history-check.js';
import {alertRulesCheck, configFileCheck, keyCheck, nodeCheck, terminalCheck} from '../doctor/local-checks.js';
import {serviceChecks} from '../doctor/service-checks.js';
import {createEngine} from '../engine/create-engine.js';
import {defaultHistoryDirectory} from '../history/history-file.js';
import {resolveTarget, restUrlFor, type Target} from '../engine/resolve-target.js';
import {inertJson} from '../format/sanitize.js';
import {probeCostCheck} from '../doctor/probe-check.js';
import {localeIsUtf8} from '../format/glyphs.js';
import {defaultAlertsPath} from './alert-flags.js';
import {historyHelp, readHistoryFlags} from './history-flags.js';
import {parseCommandLine} from './parse-command-line.js';
import {readerConnectionHelp, readReaderTarget} from './with-history.js';
import {commandFlags} from './command-flags.js';

export const doctorHelp = `
	Usage
	  $ podtop doctor [--json] [options]

	Checks everything podtop depends on and says what to fix, a line per check: ✓ in order,
	! worth a look, ✗ to fix, – not checked (and why). Node.js; the terminal (TERM, colours,
	UTF-8, size); the config files parse, and the key's file is private; where the key was found
	(never the key); each API reachable with a real read (p50 of three) and the key accepted; the
	clock against the service's; 429s; the agent (found, attached, same version, its last hour's
	429s); the history store (size, span, integrity) or its Prometheus; the alert rules parse.
	Nothing is written at the service.

	Options
	  --json            One JSON document: {ok, checks: [{id, title, status, found, fix, figures}]}
	  --ascii           Marks in ASCII (+ ! x -), as in a non-UTF-8 terminal
	  --alerts FILE     Check these alert rules  [default: ~/.config/podtop/alerts.toml if present]
	  --no-agent        Do not look for an agent
	  --rest-url        REST v2's origin (also RUNPOD_API_BASE_URL)  [default: the GraphQL URL's origin]
${readerConnectionHelp}
${historyHelp}

	Exit status: 0 when no check failed (✓, ! and – only), 1 when one did, 2 usage.

	Examples
	  $ podtop doctor
	  $ podtop doctor --json | jq '.checks[] | select(.status != "ok")'
`;

/** What is wrong with podtop's config file beyond its TOML (an unknown key, a value of the wrong kind), if anything. */
function podtopConfigProblem(text: string): string | undefined {
	try {
		parsePodtopConfig(text, defaultPodtopConfigPath(process.env));
		return undefined;
	} catch (error) {
		if (error instanceof PodtopConfigError) {
			return error.message;
		}

		throw error;
	}
}

/** The account's history as podtop would read it, without recording or polling anything. */
async function historyOf(target: Target, history: ReturnType<typeof readHistoryFlags>, agent: boolean): Promise<CheckResult> {
	if (target.mode === 'demo') {
		return checkResult({id: 'history', title: 'history', status: 'skip', found: 'DEMO: its history is simulated at each start and removed at exit'});
	}

	const engine = await createEngine({target, allVisible: true, poll: [], history, agent, notice() {}});
	try {
		await engine.history.ready;
		const directory = history.directory ?? defaultHistoryDirectory();
		return await historyCheck(engine.history.status.getState(), engine.history.reader(), {disabled: history.disabled ?? false, directory});
	} finally {
		await engine.close();
	}
}

export async function runDoctor(argv: readonly string[]): Promise<void> {
	// Not the config file's defaults: a file that cannot be used is one of the things doctor says.
	const cli = parseCommandLine(doctorHelp, argv, commandFlags.doctor, 'podtop doctor', {configDefaults: false});
	const {env} = process;
	const targetOptions = readReaderTarget(cli.flags);
	const history = readHistoryFlags(cli.flags);
	const configPath = defaultConfigPath();
	const results: CheckResult[] = [
		nodeCheck(),
		terminalCheck(env, {
			isTty: Boolean(process.stdout.isTTY),
			columns: process.stdout.columns,
			rows: process.stdout.rows,
			colorDepth: process.stdout.isTTY ? process.stdout.getColorDepth() : undefined,
		}),
		configFileCheck({id: 'runpod-config', title: 'runpod config', path: configPath, holdsKey: true}),
		configFileCheck({id: 'podtop-config', title: 'podtop config', path: defaultPodtopConfigPath(env), holdsKey: false, validate: podtopConfigProblem}),
		keyCheck(env, configPath, targetOptions.profile),
	];

	let target: Target | undefined;
	try {
		target = resolveTarget({...targetOptions, demo: targetOptions.demo});
	} catch {
		// The key check above has said why.
	}

	/** The account's endpoints as GraphQL listed them (what the probes would match). */
	let endpoints: ReadonlyArray<{readonly id: string; readonly name?: string}> | undefined;
	if (target?.mode === 'live') {
		const service = {apiUrl: target.apiUrl, graphqlUrl: target.graphqlUrl, restUrl: restUrlFor(target), apiKey: target.apiKey};
		results.push(
			...(await serviceChecks(service, {
				onEndpoints(list) {
					endpoints = list;
				},
			})),
			cli.flags.agent
				? await agentCheck({candidates: agentSocketCandidates(service), secret: agentSecret(target.apiKey), version: cli.pkg.version ?? 'unknown'})
				: checkResult({id: 'agent', title: 'agent', status: 'skip', found: 'not looked for (--no-agent)'}),
		);
	} else {
		const why = target ? 'DEMO (no API key): nothing to reach' : 'no usable key';
		for (const [id, title] of [
			['rest-v2', 'REST API v2'],
			['graphql', 'GraphQL API'],
			['job-api', 'job API'],
			['clock', 'clock'],
			['rate-limits', '429s'],
			['agent', 'agent'],
		] as const) {
			results.push(checkResult({id, title, status: 'skip', found: why}));
		}
	}

	results.push(
		target ? await historyOf(target, history, cli.flags.agent) : checkResult({id: 'history', title: 'history', status: 'skip', found: 'no usable key'}),
		alertRulesCheck(cli.flags.alerts ?? defaultAlertsPath(env), cli.flags.alerts !== undefined),
		probeCostCheck(cli.flags.alerts ?? defaultAlertsPath(env), endpoints),
	);

	// Nothing printed holds the key, whatever a check found.
	const apiKey = target?.mode === 'live' ? target.apiKey : undefined;
	const clean = results.map(result => ({...result, found: redact(result.found, apiKey), ...(result.fix ? {fix: redact(result.fix, apiKey)} : {})}));
	process.stdout.write(
		cli.flags.json ? `${inertJson({ok: !anyFailed(clean), checks: clean}, 2)}\n` : doctorText(clean, {ascii: cli.flags.ascii || !localeIsUtf8(env)}),
	);
	if (anyFailed(clean)) {
		process.exitCode = 1;
	}
}
