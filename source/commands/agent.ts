import {basename, join} from 'node:path';
import {groupAgentDirectory, type AgentFeature} from '../api/agent-protocol.js';
import type {RecordingState} from '../history/history-types.js';
import {sanitizeLine} from '../format/sanitize.js';
import {UsageError} from '../lib/usage-error.js';
import type {WebhookReport} from '../poll/alert-notifier.js';
import {serveAgent} from '../serve/agent-server.js';
import {hostDemo, type DemoHost} from '../serve/demo-host.js';
import {demoSocketPath, findDemoLink} from '../api/demo-link.js';
import {createLogHub} from '../serve/log-hub.js';
import {followTroubledWorkers} from '../serve/troubled-workers.js';
import {groupId} from '../serve/socket-file.js';
import {createMetrics} from '../serve/metrics.js';
import {serveMetrics} from '../serve/metrics-server.js';
import {createSpendFeed} from '../serve/spend-metrics.js';
import {createAgentSpend} from '../serve/agent-spend.js';
import {listenAddress} from './listen-address.js';
import {alertHelp, loadAlertRules} from './alert-flags.js';
import {connectionHelp, readConnectionFlags} from './connection-flags.js';
import {historyHelp, readHistoryFlags} from './history-flags.js';
import {withHeadlessEngine} from './headless-engine.js';
import {parseCommandLine} from './parse-command-line.js';
import {untilSignal} from './until-signal.js';
import {commandFlags} from './command-flags.js';

export const agentHelp = `
	Usage
	  $ podtop agent [options]

	Polls the account once, within the rate budget, and serves it on a Unix socket under
	$XDG_RUNTIME_DIR/podtop/ (mode 0600). Every dashboard, \`watch\` and \`snapshot\` started on this
	host for the same account attaches to it on its own (the header says "via agent") and polls
	nothing of the account itself; when the agent goes, each falls back to its own polling at once
	and attaches again when it is back. The API key is never handed out: client and agent prove
	to each other that both hold it (nothing a listener could replay), and a client trusts a
	socket only in a folder of its own user (or of the group). Writes still go from each client
	to the service, each with its own audit log.

	Options
	  --group NAME      Serve the group too: the socket in $TMPDIR/podtop-group-<gid>/ (mode 0660),
	                    where every member's podtop looks; for a team on one jump host
	  --export ADDR     Serve Prometheus /metrics from the agent too (like 127.0.0.1:9469)
${connectionHelp}
${historyHelp}
${alertHelp}

	The agent records the account's history (one SQLite file per account, only what changed,
	rolled up by the minute and the hour). Attached clients stop recording their own and read it:
	from the file when they run as the same user, over the socket otherwise (a --group member);
	they hand the agent what only they know (their tracked jobs, and a member's writes).

	DEMO (no key, or --demo): the agent keeps the demo's simulator running, and your other podtop
	commands use it (\`run --no-follow\`, then \`job <id>\` finds the job), until it is stopped.

	With --alerts, the agent evaluates the rules and posts to their webhook: attached clients show
	their own rules but leave posting to the agent (one poller, one poster). It sends the file's
	[[probe]] jobs too (each a billed job: podtop doctor says what they cost a day).

	Examples
	  $ RUNPOD_API_KEY=... podtop agent &
	  $ RUNPOD_API_KEY=... podtop            # "via agent" in the header
`;

export async function runAgent(argv: readonly string[]): Promise<void> {
	const cli = parseCommandLine(agentHelp, argv, commandFlags.agent, 'podtop agent');
	const {target, endpointFilter, budget, auditPath} = readConnectionFlags(cli.flags);
	const history = readHistoryFlags(cli.flags);
	if (endpointFilter) {
		throw new UsageError('the agent serves every endpoint of the account: drop --endpoints (a dashboard can still show fewer)');
	}

	const gid = cli.flags.group === undefined ? undefined : groupId(cli.flags.group);
	const exportAt = cli.flags.export === undefined ? undefined : listenAddress(cli.flags.export, '--export');
	const rules = loadAlertRules(cli.flags.alerts);
	const log = (line: string) => {
		process.stderr.write(`podtop agent: ${line}\n`);
	};

	const alerts = rules && {
		rules,
		onWebhook({state, alert, delivered, attempts, reason, mayHaveHappened}: WebhookReport) {
			const what = `${state} ${sanitizeLine(alert.rule)} @ ${sanitizeLine(alert.subjectName)}`;
			log(
				delivered
					? `webhook: ${what} posted`
					: `webhook: ${what} not posted after ${attempts} tries (${reason ?? 'unknown'})${mayHaveHappened ? ': it may have arrived, so it is not sent again' : ''}`,
			);
		},
	};
	let demoHost: DemoHost | undefined;
	await withHeadlessEngine(
		target,
		resolved =>
			resolved.mode === 'demo'
				? // DEMO: the agent keeps the demo's simulator running for this user's other podtops, and does nothing else.
					{
						poll: [],
						history: {disabled: true},
						auditPath,
						notice: log,
						demoShare: {
							// One of this user's podtops serves one already: nothing is started, the agent says so.
							find: findDemoLink,
							async host(link) {
								demoHost = await hostDemo(link);
								return demoHost;
							},
						},
					}
				: {budget, allVisible: true, poll: ['endpoints', 'pods', 'gpus', 'workers'], alerts, history, record: true, auditPath, notice: log},
		async engine => {
			if (engine.mode === 'demo') {
				await keepDemo(demoHost, log);
				return;
			}

			if (!engine.agentLink) {
				throw new UsageError('the agent serves a live account: set RUNPOD_API_KEY (or point --api-url and --graphql-url at a `podtop sim`)');
			}

			const {secret, socketPath: own} = engine.agentLink;
			const socketPath = gid === undefined ? own : join(groupAgentDirectory(gid), basename(own));
			const history = {
				reader: engine.history.reader,
				record: engine.history.record,
				features(): AgentFeature[] {
					const {state} = engine.history.status.getState();
					// The bills are read for clients whatever the history does (without a file, from the service each time).
					return [...(state === 'off' ? [] : state === 'remote' ? ['history' as const] : ['history' as const, 'record' as const]), 'bills'];
				},
				spend: createAgentSpend(engine.bills),
			};
			const about = () => ({version: cli.pkg.version, rateLimited: engine.rateLimitedRecently()});
			const logs = engine.openLogs && createLogHub(engine.openLogs, {keptLogs: engine.history.keptLogs, log});
			const server = await serveAgent({store: engine.store, socketPath, secret, gid, log, history, about, logs});
			// Workers that may die with their crash in their last lines: followed by the agent itself, those lines kept in the history file.
			const troubled = logs && followTroubledWorkers({store: engine.store, hub: logs});
			const spend = exportAt ? createSpendFeed(engine.spend) : undefined;
			const metrics = exportAt ? createMetrics(engine.store, {spendToday: spend?.today}) : undefined;
			const exporter =
				metrics && exportAt
					? await serveMetrics(metrics.registry, exportAt.host, exportAt.port).catch(async (error: unknown) => {
							spend?.close();
							await server.close();
							const reason = (error as NodeJS.ErrnoException).code ?? String(error);
							throw new UsageError(`cannot listen on ${exportAt.host}:${exportAt.port} (${reason}): choose another --export`);
						})
					: undefined;
			engine.start();
			log(`serving the account of key ${engine.store.getState().keyFingerprint} on ${server.socketPath} (mode ${gid === undefined ? '0600' : '0660'})`);
			if (exporter) {
				log(`serving ${exporter.url}`);
			}

			// Now, or later: when the podtop that recorded before the agent came (a dashboard) hands the file over.
			const sayRecording = (state: RecordingState, previous?: RecordingState) => {
				if (state.state === 'recording' && previous?.state !== 'recording' && previous?.state !== 'paused') {
					log(`recording history in ${state.file}`);
				}
			};

			sayRecording(engine.history.status.getState());
			const unsubscribe = engine.history.status.subscribe(sayRecording);
			try {
				await untilSignal();
			} finally {
				unsubscribe();
				troubled?.close();
				spend?.close();
				metrics?.close();
				await exporter?.close();
				await server.close();
			}
		},
	);
}

/** DEMO: the simulator stays up, and this user's `snapshot`, `run`, `job`… use it, until a signal; refused when a podtop of this user serves one already. */
async function keepDemo(host: DemoHost | undefined, log: (line: string) => void): Promise<void> {
	if (!host) {
		throw new Error(
			`a podtop of yours (a DEMO dashboard or agent) serves the demo's simulator already, or ${demoSocketPath()} cannot be used: the commands use that one`,
		);
	}

	log(`DEMO: serving the demo's simulator to your podtop commands on ${host.socketPath} (mode 0600) until Ctrl-C`);
	await untilSignal();
}
