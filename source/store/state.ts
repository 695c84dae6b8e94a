import type {BalanceRead} from '../model/balance.js';
import type {ServerlessDiscount} from '../model/endpoint.js';
import type {BilledBucket} from './month-forecast.js';
import type {
	BudgetState,
	ConnectionState,
	EndpointState,
	FiringAlert,
	GpuState,
	PaneName,
	PodDetail,
	PodState,
	ProbeState,
	SourceName,
	TrackedJob,
} from './types.js';
import type {WorkersState} from './worker-track.js';

export type Collection<T> = {
	readonly byId: Readonly<Record<string, T>>;
	/** Ids in the order the service listed them. */
	readonly order: readonly string[];
	/** When the list last came in (undefined: none has yet, as in a store just made or an agent's before its first poll). */
	readonly updatedAt?: number;
	/** Who made the list (`PodtopState.listSource` when it was written): two lists are compared only when one source made both. */
	readonly listedBy?: string;
};

export type TrackedJobs = {
	/**
	The map is updated in place by its writer (10,000 jobs must not be copied on every poll); each
	job record is replaced when it changes. Select a job with `state.jobs.byKey.get(key)`.
	*/
	readonly byKey: ReadonlyMap<string, TrackedJob>;
	/** Counts writes: `state.jobs` is a new object exactly when a job changed. */
	readonly revision: number;
	/** The keys the latest write touched. */
	readonly changed: readonly string[];
};

/** A profile's name and the colour of its band in the header (never the only sign: the name is written). */
export type Profile = {readonly name: string; readonly color: string | undefined};

/** What podtop knows of the service. Data only: its writers live beside it (`write-*.ts`). */
/** The account's bills of a month so far (UTC days) and when they were read. */
export type MonthSpend = {readonly buckets: readonly BilledBucket[]; readonly readAt: number};

export type PodtopState = {
	readonly mode: 'demo' | 'live';
	/** Host of the job API, for the header (no path, no query, no key). */
	readonly apiHost: string;
	/** `••••1a2b`: the key is never kept in the store. */
	readonly keyFingerprint: string;
	/** The profile in use (`--profile`, or `default` when podtop's config file has a section for it) and its band colour, for the header. */
	readonly profile?: Profile;
	/** Where the account's data comes from: this process's own pollers, or an agent on the host (`podtop agent`). */
	readonly via: 'direct' | 'agent';
	/**
	Who lists the account now: `direct` (this process's own polls) or `agent N` (its Nth attachment to
	an agent: an agent restarted is another source). Every list written is stamped with it.
	*/
	readonly listSource: string;
	readonly endpoints: Collection<EndpointState>;
	readonly pods: Collection<PodState>;
	/** The pod whose details are open: its full record (ports, env) and per-GPU history. */
	readonly podDetail: PodDetail | undefined;
	/** The account's serverless discount (factor, type, expiry), when it has one. */
	readonly serverlessDiscount: ServerlessDiscount | undefined;
	/** The account's balance and spend per hour as last read (`not-published` once the API no longer says); undefined before the first read. */
	readonly balance: BalanceRead | undefined;
	/** The account's bills of this month so far, by UTC day, as last read (for a `budget` rule only; absent when none asks). */
	readonly monthSpend?: MonthSpend;
	readonly gpus: Collection<GpuState>;
	readonly jobs: TrackedJobs;
	readonly connection: Readonly<Record<SourceName, ConnectionState>>;
	/** The sources whose last answer refused the key (401, 403), with that status: each is cleared by its next success. */
	readonly keyRefused: Readonly<Partial<Record<SourceName, number>>>;
	readonly budgets: Readonly<Record<string, BudgetState>>;
	/** The alert rules firing now (`--alerts`), oldest first. */
	readonly alerts: readonly FiringAlert[];
	/** The `[[probe]]` jobs' times per endpoint (sent here, by the agent, or read back from history). */
	readonly probes: ProbeState;
	/** Serverless workers (REST v2) of the endpoints whose details are open or whose jobs wait, and their rollouts. */
	readonly workers: WorkersState;
	/** Which pane is on screen, so hidden ones poll slower. */
	readonly focus: PaneName;
};

export type SetState = (partial: Partial<PodtopState>) => void;
export type GetState = () => PodtopState;
