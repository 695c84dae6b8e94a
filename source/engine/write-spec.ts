import type {ChatResult} from '../api/compat-api.js';
import type {EndpointInput, EndpointRecord} from '../model/endpoint.js';
import type {PodDeployInput, PodRecord} from '../model/pod.js';
import type {JobRequest, JobStatusBody} from '../api/job-types.js';
import type {Pollers} from '../poll/pollers.js';
import type {ScheduledApi} from '../poll/scheduled-api.js';
import type {StoreWrites} from '../store/create-store.js';
import type {ChatInput} from './chat.js';
import type {LoadRun, LoadSummary} from './load-run.js';

/** How much harm a mistake does: `write` asks y/N, `destructive` asks for the name typed out. */
export type Danger = 'read' | 'write' | 'destructive';

export type JobTarget = {readonly endpointId: string; readonly jobId: string};
export type EndpointTarget = {readonly endpointId: string};
export type PodTarget = {readonly podId: string};

/** What a command line or a message names: an endpoint, a pod or a GPU type. */
export type NamedKind = 'endpoint' | 'pod' | 'gpu';

/** A thing as a message names it: `llama (ep1)` when its name is known, else its id. */
export type Label = (kind: NamedKind, id: string) => string;

/** What each write takes and gives back. */
export type WriteTypes = {
	'job.submit': {target: EndpointTarget; input: {readonly request: JobRequest; readonly sync?: {readonly waitMs?: number}}; result: JobStatusBody};
	/** A `[[probe]]` rule's one small job: a submit, audited as a probe. */
	'endpoint.probe': {target: EndpointTarget; input: {readonly request: JobRequest}; result: JobStatusBody};
	'job.cancel': {target: JobTarget; input: undefined; result: JobStatusBody};
	'job.retry': {target: JobTarget; input: undefined; result: JobStatusBody};
	'endpoint.purge-queue': {target: EndpointTarget; input: undefined; result: {readonly removed: number; readonly status: string}};
	'endpoint.chat': {target: EndpointTarget; input: ChatInput; result: ChatResult};
	/** `podtop load`: one write for the whole run, however many jobs it sends (each once). */
	'endpoint.load': {target: EndpointTarget; input: {readonly run: LoadRun}; result: LoadSummary};
	'endpoint.scale': {target: EndpointTarget; input: {readonly workersMin: number; readonly workersMax: number}; result: EndpointRecord};
	'endpoint.delete': {target: EndpointTarget; input: undefined; result: undefined};
	'endpoint.update': {target: EndpointTarget; input: {readonly changes: Partial<EndpointInput>}; result: EndpointRecord};
	'endpoint.create': {target: {readonly name: string}; input: {readonly record: EndpointInput}; result: EndpointRecord};
	'pod.stop': {target: PodTarget; input: undefined; result: PodRecord};
	'pod.resume': {target: PodTarget; input: {readonly gpuCount?: number}; result: PodRecord};
	'pod.bid-resume': {target: PodTarget; input: {readonly bidPerGpu: number; readonly gpuCount?: number}; result: PodRecord};
	'pod.terminate': {target: PodTarget; input: undefined; result: undefined};
	'pod.deploy': {target: {readonly gpuTypeId: string}; input: {readonly deploy: PodDeployInput; readonly bidPerGpu?: number}; result: PodRecord};
};

export type WriteId = keyof WriteTypes;

export type AfterContext = {readonly writes: StoreWrites; readonly pollers: Pollers};

export type WriteSpec<Id extends WriteId> = {
	readonly danger: Exclude<Danger, 'read'>;
	/** For messages: `cancel job abc on llama (ep1)`, the things named by `label`. */
	readonly describe: (target: WriteTypes[Id]['target'], label: Label) => string;
	/** Sends it; `writes` lets a write whose answer streams (a chat) show it as it arrives. */
	readonly send: (
		api: ScheduledApi,
		target: WriteTypes[Id]['target'],
		input: WriteTypes[Id]['input'],
		writes: StoreWrites,
	) => Promise<WriteTypes[Id]['result']>;
	/** After a success: track what it made and re-poll exactly what it changed. */
	readonly after: (context: AfterContext, target: WriteTypes[Id]['target'], result: WriteTypes[Id]['result']) => void;
	/** After an ambiguous failure: how the user finds out whether it happened. */
	readonly howToCheck: (target: WriteTypes[Id]['target']) => string;
	/** What the audit line's digest is of, when not the whole input (a load: its request and plan, not the run). */
	readonly digestOf?: (input: WriteTypes[Id]['input']) => unknown;
	/** Fields the audit line adds on success (a load: its count and summary). */
	readonly auditFields?: (result: WriteTypes[Id]['result']) => Readonly<Record<string, unknown>>;
};
