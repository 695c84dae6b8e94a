import {agentSecret} from '../api/agent-handshake.js';
import {agentSocketCandidates, agentSocketPath, type HistoryMethod} from '../api/agent-protocol.js';
import {agentIsSameUser, findAgentSocket} from '../api/agent-socket-trust.js';
import {createGraphqlApi} from '../api/graphql-api.js';
import {createManagementApi, type ManagementChoice} from '../api/management-choice.js';
import {createRestApi} from '../api/rest/rest-api.js';
import {createCompatApi} from '../api/compat-api.js';
import type {SavedEndpoint} from '../model/endpoint.js';
import type {GpuTypeRecord} from '../model/gpu-type.js';
import type {LogQuery} from '../model/log-line.js';
import type {LogSession, LogSubject} from '../model/log-session.js';
import type {PodRecord} from '../model/pod.js';
import {createJobApi} from '../api/job-api.js';
import type {Health} from '../api/job-types.js';
import {Pools} from '../api/pools.js';
import {keyFingerprint, rememberSecret} from '../api/redact.js';
import type {AlertRules} from '../config/alert-rules.js';
import {historyAccountId} from '../history/history-file.js';
import {withAgentHistory, type AgentAwareHistory} from '../history/agent-history.js';
import type {AgentTransport} from '../history/agent-reader.js';
import {openHistory, type History, type HistoryOptions} from '../history/open-history.js';
import {createAlertLoop} from '../poll/alert-loop.js';
import {createWebhookNotifier, type WebhookReport} from '../poll/alert-notifier.js';
import {createAgentConnection} from '../poll/agent-connection.js';
import {createAgentFeed, readAgentSnapshot, type AgentFeed} from '../poll/agent-feed.js';
import {defaultBudgetSettings, type BudgetSettings} from '../poll/budget-limits.js';
import type {Cadence} from '../poll/cadence.js';
import {allPolledData, createPollers, type ChunkListener, type PolledData} from '../poll/pollers.js';
import {openLogSession} from '../poll/open-log-session.js';
import {createScheduledApi} from '../poll/scheduled-api.js';
import type {SpendQuery, SpendSplit} from '../model/spend.js';
import {Scheduler, v2BudgetKey} from '../poll/scheduler.js';
import type {RunningSimulator} from '../sim/start-simulator.js';
import {createPodtopStore, type PodtopStore, type StoreWrites} from '../store/create-store.js';
import {healthKeepFor} from '../store/health-keep.js';
import type {PaneName} from '../store/types.js';
import type {DemoLink} from '../api/demo-link.js';
import {createAgentForwarding} from './agent-forwarding.js';
import {createAgentLogs} from './agent-logs.js';
import {resolveLogSubject, type LogNames, type ResolvedLogSubject} from './log-subject.js';
import {createMonthSpendLoop} from './month-spend-loop.js';
import {billedSpend, type SpendReads} from './billed-spend.js';
import {spendThroughAgent} from './spend-through-agent.js';
import {spendReport, spendTotals, type ResourceWindowTotal, type SpendReport} from './spend-report.js';
import {billedTotals, type TotalsWindows} from './billed-totals.js';
import {seedHealthFromHistory} from './health-seed.js';
import {createNameResolver, type NameResolver} from './name-resolver.js';
import {perform, type PerformResult} from './perform.js';
import {createProbeLoop} from './probe-loop.js';
import {demoOrigin, demoPastMs, recordSimulatedPast} from './demo-past.js';
import {readWorkers, type WorkersReport} from './read-workers.js';
import {restUrlFor, type Target} from './resolve-target.js';
import {snapshotOfAccount, takeSnapshot, type Snapshot} from './take-snapshot.js';
import type {WriteId, WriteTypes} from './writes.js';

/**
The one API the dashboard and every headless command use: read the store, say what is on screen,
follow jobs, refresh, and `perform` writes. Nothing else writes the store but its pollers.
*/
export type Engine = {
	readonly mode: 'demo' | 'live';
	readonly readOnly: boolean;
	/** Why read-only when a profile made it so, and how to write. */
	readonly readOnlyReason: string | undefined;
	readonly store: PodtopStore;
	/** Live: where an agent for this account listens, and the handshake's secret (derived from the key, never sent). */
	readonly agentLink: AgentLink | undefined;
	/** Starts polling (the data named in `poll`). */
	readonly start: () => void;
	/** The pane on screen: it polls at its visible cadence, the others slower. */
	readonly focus: (pane: PaneName) => void;
	/** The rows on screen: an endpoint's health is polled every few seconds (the rest spread out); a pod's row keeps the pane's cadence in a list of thousands. */
	readonly showing: (pane: 'endpoints' | 'pods', keys: readonly string[]) => void;
	/** Tracks a job (polled by state until it ends); returns its key. */
	readonly track: (endpointId: string, jobId: string) => string;
	/** Follows a job's stream until the returned function is called; `onChunks` gets each new chunk once. */
	readonly follow: (endpointId: string, jobId: string, onChunks?: ChunkListener) => () => void;
	readonly refresh: () => void;
	/** One endpoint's health now, at a user's priority. */
	readonly health: (endpointId: string) => Promise<Health>;
	/** Polls one pod's details (ports, env, per-GPU history) while they are open; returns the stop. */
	readonly watchPod: (podId: string) => () => void;
	/** One endpoint's workers, rollout, health and the diagnosis of one look, read now (`podtop workers`). */
	readonly readWorkers: (endpointId: string) => Promise<WorkersReport>;
	/** Polls one endpoint's workers every few seconds, and its releases, while its details are open; returns the stop. */
	readonly watchEndpoint: (endpointId: string) => () => void;
	/** A GPU type's offer for a count and cloud, read now: its minimum bid, price and stock for a deploy. */
	readonly offer: (gpuTypeId: string, gpuCount: number, secureCloud?: boolean) => Promise<GpuTypeRecord | undefined>;
	/** One pod, read now (to say what a terminate would delete). */
	readonly pod: (podId: string) => Promise<PodRecord | null>;
	/** One endpoint with every writable field, read now; undefined when the account has none such. */
	readonly endpointRecord: (endpointId: string) => Promise<SavedEndpoint | undefined>;
	/** One consistent picture now, within the same budgets (`podtop snapshot`). */
	readonly snapshot: () => Promise<Snapshot>;
	/** The account's bills for a window, by category or by pod, endpoint or volume (names from the fleet). */
	readonly spend: (query: SpendQuery, split: SpendSplit) => Promise<SpendReport>;
	/** The account's bills as this process reads them: through its history file, or through the agent it is attached to (which reads them for all its clients). */
	readonly bills: SpendReads;
	/** Each pod's, endpoint's or volume's total over windows of a read (one per start), named, the costliest first: the Spend pane's lists, summed where the bills lie. */
	readonly spendTotals: (query: SpendQuery, split: Exclude<SpendSplit, 'category'>, windows: TotalsWindows) => Promise<ResourceWindowTotal[][]>;
	/** The 429s this process's requests got in the last hour, and when the last came (`podtop doctor`, through the agent). */
	readonly rateLimitedRecently: () => {readonly lastHour: number; readonly lastAt: number | undefined};
	/** The account's recorded history: its reader (range queries) and what the recorder is doing. */
	readonly history: History;
	/** DEMO: how much of the past the simulator simulated for history to hold (`history.ready` once recorded); undefined otherwise. */
	readonly simulatedPastMs: number | undefined;
	/** The endpoint, pod or GPU type a command line names, by id or name (exit 4 listing the candidates when none or several). */
	readonly resolve: NameResolver['resolve'];
	/**
	Follows a pod's, a worker's or every worker's of an endpoint (merged) log, by ids, until the session is
	closed (the engine's close closes it too). Each connect goes through v2's budget. Absent where the
	management plane publishes no logs (`--management-api graphql`). `background`: the agent's own
	follows, connected after a user's (asked at each connect).
	*/
	readonly openLogs?: (subject: LogSubject, query: LogQuery, options?: {readonly background?: () => boolean}) => LogSession;
	/** The ids behind the names a command line gives for `podtop logs` (exit 4 listing candidates when none or several). */
	readonly resolveLogSubject: (names: LogNames) => Promise<ResolvedLogSubject>;
	readonly perform: <Id extends WriteId>(id: Id, target: WriteTypes[Id]['target'], input: WriteTypes[Id]['input']) => Promise<PerformResult<Id>>;
	/** Stops the pollers, aborts requests, closes connections and the demo simulator. */
	readonly close: () => Promise<void>;
};

/** Where this account's agent listens (its own folder; `candidates` adds the group folders a client also looks in), and the handshake's secret. */
export type AgentLink = {readonly socketPath: string; readonly candidates: readonly string[]; readonly secret: string};

export type EngineOptions = {
	readonly target: Target;
	readonly budget?: Partial<BudgetSettings>;
	readonly cadence?: Cadence;
	readonly endpointFilter?: readonly string[];
	/** Headless: every pane counts as visible. */
	readonly allVisible?: boolean;
	/** What to keep fresh (default: everything). */
	readonly poll?: readonly PolledData[];
	/** No write leaves the process: `perform` answers `read-only`. */
	readonly readOnly?: boolean;
	/** Why read-only, said in each refusal (a profile marked read-only: how to write). */
	readonly readOnlyReason?: string;
	/** Where `perform` appends its audit lines; undefined keeps none. */
	readonly auditPath?: string;
	/**
	Take the account from an agent on this host (`podtop agent`) when one serves it, polling only
	what is this process's own (followed jobs, an open pod); live, and every endpoint, only. Unset,
	the process is not fed, but a process that polls nothing of the account (`snapshot`, `history`)
	reads the agent's history when it cannot read the file, and an agent of another user
	(`--group`) is told of its writes. False (`--no-agent`): no agent is asked anything.
	*/
	readonly agent?: boolean;
	/**
	Alert rules to evaluate against the store (firing ones land in `state.alerts`), and what to tell
	of each webhook post. Attached to an agent, a client shows its alerts but leaves posting to the
	agent: one poller, one poster.
	*/
	readonly alerts?: {readonly rules: AlertRules; readonly onWebhook?: (report: WebhookReport) => void};
	/** A store the caller made already (the dashboard draws its first frame before the engine loads). */
	readonly state?: {readonly store: PodtopStore; readonly writes: StoreWrites};
	/** How history is kept and read (`--history-dir`, `--no-history`, `--retention`, `--history-source`). */
	readonly history?: HistoryOptions;
	/** Record the account's history when no other podtop does (the agent, the dashboard, `watch`); otherwise it is only read. */
	readonly record?: boolean;
	/** Notices for the user that are no error (history paused, read only, a damaged file moved aside). */
	readonly notice?: (line: string) => void;
	/** The scheduler's monotonic clock in ms (default `performance.now`): a test holds it still to count what the budgets let go, not time. */
	readonly schedulerClock?: () => number;
	/** DEMO: one simulator for this user's podtops, while one of them keeps it running. */
	readonly demoShare?: DemoShare;
	/** The wall clock bills are kept by (default `Date.now`): a test holds it inside one 5-minute billing run, or moves it past one. */
	readonly billClock?: () => number;
};

/**
DEMO, shared: `find` the simulator a podtop of this user keeps running and use it instead of starting
one (a command that ends: `snapshot`, `run`, `job`); or start one and `host` it, telling the others
where it is until this engine closes (a dashboard, the agent).
*/
export type DemoShare = {
	readonly find?: () => Promise<DemoLink | undefined>;
	readonly host?: (link: DemoLink) => Promise<{readonly close: () => Promise<void>} | undefined>;
};

/** Everything behind the UI, built outside React: the demo simulator when needed, clients, scheduler, store, pollers. */
export async function createEngine({
	target,
	budget,
	cadence,
	endpointFilter,
	allVisible,
	poll,
	readOnly = false,
	readOnlyReason,
	auditPath,
	agent,
	alerts,
	state,
	history: historyOptions = {},
	record = false,
	notice,
	schedulerClock,
	demoShare,
	billClock,
}: EngineOptions): Promise<Engine> {
	let demo: RunningSimulator | undefined;
	let demoHost: {readonly close: () => Promise<void>} | undefined;
	let service: {
		readonly apiUrl: string;
		readonly graphqlUrl: string;
		readonly restUrl?: string;
		readonly managementApi?: ManagementChoice;
		readonly apiKey: string;
	};
	// DEMO, recording the whole account: the simulator runs its past hours first, for history to hold them.
	const recordsAll = record && !endpointFilter?.length;
	const demoPast = historyOptions.demoPastMs ?? demoPastMs;
	const now = Date.now();
	const origin = target.mode === 'demo' && demoPast > 0 ? demoOrigin(now, demoPast) : undefined;
	const simulatedPastMs =
		origin !== undefined && recordsAll && !historyOptions.disabled && historyOptions.prometheusUrl === undefined ? now - origin : undefined;
	if (target.mode === 'live') {
		service = target;
	} else {
		const shared = await demoShare?.find?.();
		if (shared) {
			service = {apiUrl: `${shared.url}/v2`, graphqlUrl: `${shared.url}/graphql`, managementApi: target.managementApi, apiKey: shared.apiKey};
		} else {
			// Loaded only for DEMO: a live session never pays for the simulator's code. Its own thread: its past and its load run beside the UI.
			// Always from the hour the demo's world begins (recorded or not): every podtop started within that hour sees one fleet and one past.
			const {startSimulatorThread} = await import('../sim/start-simulator-thread.js');
			demo = await startSimulatorThread({port: 0, host: '127.0.0.1', load: true, origin});
			service = {apiUrl: `${demo.url}/v2`, graphqlUrl: `${demo.url}/graphql`, managementApi: target.managementApi, apiKey: demo.apiKey};
			demoHost = await demoShare?.host?.({url: demo.url, apiKey: demo.apiKey});
		}
	}

	const {apiUrl, graphqlUrl, apiKey} = service;
	rememberSecret(apiKey);
	const pools = new Pools();
	const scheduler = new Scheduler({settings: {...defaultBudgetSettings, ...budget}, ...(schedulerClock ? {now: schedulerClock} : {})});
	const managementApi = createManagementApi({
		choice: service.managementApi ?? 'auto',
		// Every v2 answer says what is left of the key owner's windows: the scheduler plans inside them.
		v2: createRestApi({
			baseUrl: restUrlFor(service),
			apiKey,
			pools,
			onAnswer(answer) {
				scheduler.observe(v2BudgetKey, answer);
			},
		}),
		graphql: createGraphqlApi({url: graphqlUrl, apiKey, pools}),
		notice,
	});
	const api = createScheduledApi({
		jobApi: createJobApi({baseUrl: apiUrl, apiKey, pools}),
		compatApi: createCompatApi({baseUrl: apiUrl, apiKey, pools}),
		managementApi,
		managementBudget: () => (managementApi.inUse() === 'v2' ? v2BudgetKey : 'graphql'),
		readsPodsApart: () => managementApi.inUse() !== 'v2',
		scheduler,
	});
	const {store, writes} =
		state ??
		createPodtopStore({
			mode: target.mode,
			apiHost: new URL(apiUrl).host,
			keyFingerprint: keyFingerprint(apiKey),
			healthKeepMs: healthKeepFor(alerts?.rules.rules),
		});
	writes.setService(new URL(apiUrl).host, keyFingerprint(apiKey));

	// Probes (off unless configured) go out from the processes that poll the account: the agent, or a dashboard or `watch` alone.
	const probeRules = record ? (alerts?.rules.probes ?? []) : [];
	const probing = probeRules.length > 0 && !readOnly;
	// A probe's job is followed by the jobs loop (status by state, within the budgets), also in the agent, which follows no other.
	const polled = probing && poll && !poll.includes('jobs') ? [...poll, 'jobs' as const] : poll;
	const pollers = createPollers({store, writes, api, scheduler, cadence, endpointFilter, allVisible, poll: polled});
	const account = historyAccountId(service);
	const link: AgentLink | undefined =
		target.mode === 'live' ? {socketPath: agentSocketPath(service), candidates: agentSocketCandidates(service), secret: agentSecret(apiKey)} : undefined;
	// Every endpoint of the account, or none: a filtered view polls its own few.
	const agentLink = agent && !endpointFilter?.length ? link : undefined;
	const fed = Boolean(agentLink) && (poll ?? allPolledData).includes('endpoints');
	// A filtered view sees part of the account: it reads history, never writes it.
	const local = openHistory({
		store,
		service,
		mode: target.mode,
		options: historyOptions,
		record: recordsAll,
		auditPath,
		account,
		log: notice,
		backfill:
			simulatedPastMs === undefined
				? undefined
				: async (backfillTarget, signal) => {
						await recordSimulatedPast({pool: pools.for(apiUrl), apiKey, target: backfillTarget, rules: alerts?.rules.rules, signal});
					},
		// Fed by an agent that records, this process does not record: the feed's first look decides.
		standBy: fed,
	});
	// --no-history, or another source (Prometheus): nothing of the agent's history either.
	const history: AgentAwareHistory =
		historyOptions.disabled || historyOptions.prometheusUrl !== undefined
			? {...local, attached() {}}
			: withAgentHistory(local, {
					findAgent:
						link && agent !== false && !fed
							? () => {
									const socketPath = findAgentSocket(link.candidates);
									return socketPath === undefined
										? undefined
										: {transport: createAgentConnection({socketPath, secret: link.secret}), sameUser: agentIsSameUser(socketPath)};
								}
							: undefined,
				});
	let feed: AgentFeed | undefined;
	const forwarding = createAgentForwarding({store, send: message => feed?.send(message) ?? false, link: agent === false ? undefined : link});
	const webhook = alerts?.rules.webhook;
	const notifier = webhook ? createWebhookNotifier({webhook, onReport: alerts.onWebhook}) : undefined;
	const alertLoop =
		alerts && alerts.rules.rules.length > 0
			? createAlertLoop({
					store,
					writes,
					rules: alerts.rules.rules,
					onChange(change) {
						if (store.getState().via === 'direct') {
							notifier?.notify(change);
						}
					},
				})
			: undefined;
	const names = createNameResolver(api, store);
	/** Bills through the history file: the service is asked only for the buckets it lacks or that were open. */
	/** Attached to an agent that reads bills: asked of it, and this process sends the service no billing request of its own. */
	let billsAgent: AgentTransport | undefined;
	const billed = spendThroughAgent(
		billedSpend(api, () => history.bills(), billClock),
		() => billsAgent,
	);
	// Totals summed in the history file; attached to an agent, from the records it answers.
	const localTotals = billedTotals(api, () => history.bills(), billClock);
	const agentTotals = billedTotals(billed, () => undefined, billClock);
	// The month's bills, only for a `budget` rule's forecast (at most one request per 5 minutes; the closed days from the history file).
	const monthSpendLoop =
		alertLoop && alerts!.rules.rules.some(rule => rule.kind === 'budget') ? createMonthSpendLoop({api: {...api, ...billed}, writes}) : undefined;
	const performWrite: Engine['perform'] = async (id, writeTarget, input) =>
		perform(
			{api, writes, pollers, mode: target.mode, readOnly, readOnlyReason, auditPath, apiKey, account, label: names.label, onWrite: forwarding.wrote},
			id,
			writeTarget,
			input,
		);
	if (probeRules.length > 0) {
		writes.setProbesConfigured(true);
		if (readOnly) {
			notice?.(
				`read-only: the ${probeRules.length === 1 ? 'probe rule sends' : `${probeRules.length} probe rules send`} nothing${readOnlyReason ? ` (${readOnlyReason})` : ''}`,
			);
		}
	}

	const probeLoop =
		probeRules.length > 0
			? createProbeLoop({
					store,
					writes,
					rules: probeRules,
					send: probing ? async (endpointId, input) => performWrite('endpoint.probe', {endpointId}, {request: {input}}) : undefined,
					reader: () => history.reader(),
					record(events) {
						history.record(events);
					},
				})
			: undefined;
	const logSessions = new Set<LogSession>();
	// The agent itself (which asks no agent) and --no-agent go to the service.
	const agentLogs = createAgentLogs(api.logStream, agent ? link : undefined);
	let closing: Promise<void> | undefined;
	let demoPresent = simulatedPastMs === undefined;
	let stopSeeding: (() => void) | undefined;
	const startPolling = () => {
		stopSeeding ??= seedHealthFromHistory({store, writes, reader: () => history.reader(), ready: history.ready});
		alertLoop?.start();
		probeLoop?.start();
		if (!agentLink || !(poll ?? allPolledData).includes('endpoints')) {
			monthSpendLoop?.start();
			pollers.start();
			return;
		}

		// The agent first: the account is polled here only once it is known that none serves it.
		pollers.start({account: false});
		feed = createAgentFeed({
			socketPaths: agentLink.candidates,
			secret: agentLink.secret,
			store,
			writes,
			onWarning: notice,
			onAttached(attached, peer) {
				pollers.setAccountPolling(!attached);
				const now = attached ? peer : undefined;
				pollers.setBalanceFed(now?.features.includes('balance') ?? false);
				forwarding.attached(now);
				const transport: AgentTransport | undefined = now && {
					socketPath: now.socketPath,
					request: async (method: HistoryMethod, args: readonly unknown[], timeoutMs: number) => feed!.request(method, args, timeoutMs),
				};
				billsAgent = now?.features.includes('bills') ? transport : undefined;
				// The month's bills once it is known who reads them: the agent, or this process (no agent, or one that reads none).
				monthSpendLoop?.start();
				history.attached(now && {transport: transport!, sameUser: now.sameUser, records: now.features.includes('history')});
			},
		});
		feed.start();
	};

	return {
		mode: target.mode,
		readOnly,
		readOnlyReason,
		store,
		agentLink: link,
		rateLimitedRecently: () => scheduler.rateLimitedRecently(),
		start() {
			// DEMO: the simulator answers once it has run its past; polling starts then, not a pile of held requests.
			if (demo && !demoPresent) {
				void demo.present.then(() => {
					demoPresent = true;
					if (!closing) {
						startPolling();
					}
				});
				return;
			}

			startPolling();
		},
		spend: async (query, split) => spendReport({...api, ...billed}, query, split),
		bills: billed,
		spendTotals: async (query, split, windows) => spendTotals(api, billsAgent ? agentTotals : localTotals, query, split, windows),
		focus: writes.setFocus,
		showing: pollers.showing,
		watchPod: pollers.watchPod,
		watchEndpoint: pollers.watchEndpoint,
		readWorkers: async endpointId => readWorkers(api, endpointId, Date.now),
		track: (endpointId, jobId) => writes.trackJob(endpointId, jobId),
		follow(endpointId, jobId, onChunks) {
			const key = writes.trackJob(endpointId, jobId, {follow: true});
			const unlisten = onChunks ? pollers.listen(key, onChunks) : undefined;
			pollers.repoll({jobKey: key});
			return () => {
				unlisten?.();
				writes.setFollow(key, false);
			};
		},
		refresh: pollers.refresh,
		health: async endpointId => api.health(endpointId, 'action'),
		pod: async podId => api.pod(podId),
		offer: async (gpuTypeId, gpuCount, secureCloud) => api.offer(gpuTypeId, gpuCount, secureCloud),
		endpointRecord: async endpointId => api.endpointForEdit(endpointId),
		async snapshot() {
			const meta = {mode: target.mode, apiHost: store.getState().apiHost, endpointFilter};
			const account = agentLink ? await readAgentSnapshot(agentLink.candidates, agentLink.secret) : undefined;
			return (account && snapshotOfAccount(account, meta)) ?? takeSnapshot(api, meta);
		},
		history,
		simulatedPastMs,
		resolve: names.resolve,
		openLogs:
			managementApi.streamLogs &&
			((subject, query, options) => {
				const session = openLogSession({
					subject,
					query,
					background: options?.background,
					logStream: agentLogs.logStream,
					workers: async endpointId => api.workers(endpointId, 'visible'),
					// What the agent kept of a gone worker, in the history file (while an agent runs, it sends them itself).
					kept: async (endpointId, workerId) => history.reader()?.keptLines?.(endpointId, workerId),
				});
				logSessions.add(session);
				return {
					...session,
					close() {
						logSessions.delete(session);
						session.close();
					},
				};
			}),
		resolveLogSubject: async logNames => resolveLogSubject(logNames, {resolve: names.resolve, workers: async endpointId => api.workers(endpointId, 'action')}),
		perform: performWrite,
		async close() {
			closing ??= (async () => {
				for (const session of logSessions) {
					session.close();
				}

				logSessions.clear();
				agentLogs.close();
				await forwarding.stop();
				feed?.stop();
				stopSeeding?.();
				alertLoop?.stop();
				monthSpendLoop?.stop();
				probeLoop?.stop();
				notifier?.stop();
				pollers.stop();
				scheduler.stop();
				// A probe being sent has its answer (aborted: may have happened) and its audit line before the rest closes.
				await probeLoop?.settle();
				await history.close();
				await pools.close();
				await demoHost?.close();
				await demo?.close();
			})();
			return closing;
		},
	};
}
