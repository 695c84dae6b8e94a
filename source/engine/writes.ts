import type {ChatResult} from '../api/compat-api.js';
import type {JobRequest, JobStatusBody} from '../api/job-types.js';
import type {Pollers} from '../poll/pollers.js';
import type {ScheduledApi} from '../poll/scheduled-api.js';
import type {StoreWrites} from '../store/create-store.js';
import {jobKey} from '../store/job-key.js';
import {sendChat, type ChatInput} from './chat.js';

/** How much harm a mistake does: `write` asks y/N, `destructive` asks for the name typed out. */
export type Danger = 'read' | 'write' | 'destructive';

export type JobTarget = {readonly endpointId: string; readonly jobId: string};
export type EndpointTarget = {readonly endpointId: string};

/** What each write takes and gives back. */
export type WriteTypes = {
	'job.submit': {target: EndpointTarget; input: {readonly request: JobRequest; readonly sync?: {readonly waitMs?: number}}; result: JobStatusBody};
	'job.cancel': {target: JobTarget; input: undefined; result: JobStatusBody};
	'job.retry': {target: JobTarget; input: undefined; result: JobStatusBody};
	'endpoint.purge-queue': {target: EndpointTarget; input: undefined; result: {readonly removed: number; readonly status: string}};
	'endpoint.chat': {target: EndpointTarget; input: ChatInput; result: ChatResult};
};

export type WriteId = keyof WriteTypes;

type AfterContext = {readonly writes: StoreWrites; readonly pollers: Pollers};

export type WriteSpec<Id extends WriteId> = {
	readonly danger: Exclude<Danger, 'read'>;
	/** For messages and the audit log: `cancel job abc on ep`. */
	readonly describe: (target: WriteTypes[Id]['target']) => string;
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
};

/** Every write podtop can send to the service. Each goes out once, through `engine.perform`. */
export const writeSpecs: {readonly [Id in WriteId]: WriteSpec<Id>} = {
	'job.submit': {
		danger: 'write',
		describe: ({endpointId}) => `submit a job to ${endpointId}`,
		send: async (api, {endpointId}, {request, sync}) => (sync ? api.runSync(endpointId, request, sync.waitMs) : api.run(endpointId, request)),
		after({writes, pollers}, {endpointId}, result) {
			const key = writes.trackJob(endpointId, result.id);
			writes.updateJob(key, result, Date.now());
			pollers.repoll({jobKey: key, endpointId});
		},
		howToCheck: ({endpointId}) => `the job may exist: watch the queue of ${endpointId} (its health counters), or the webhook if you set one`,
	},
	'job.cancel': {
		danger: 'write',
		describe: ({endpointId, jobId}) => `cancel job ${jobId} on ${endpointId}`,
		send: async (api, {endpointId, jobId}) => api.cancel(endpointId, jobId),
		after({pollers}, target) {
			pollers.repoll({jobKey: jobKey(target.endpointId, target.jobId), endpointId: target.endpointId});
		},
		howToCheck: ({endpointId, jobId}) => `check with: podtop job ${endpointId} ${jobId}`,
	},
	'job.retry': {
		danger: 'write',
		describe: ({endpointId, jobId}) => `retry job ${jobId} on ${endpointId}`,
		send: async (api, {endpointId, jobId}) => api.retry(endpointId, jobId),
		after({pollers}, target) {
			pollers.repoll({jobKey: jobKey(target.endpointId, target.jobId), endpointId: target.endpointId});
		},
		howToCheck: ({endpointId, jobId}) => `check with: podtop job ${endpointId} ${jobId}`,
	},
	'endpoint.purge-queue': {
		danger: 'destructive',
		describe: ({endpointId}) => `purge the queue of ${endpointId}`,
		send: async (api, {endpointId}) => api.purgeQueue(endpointId),
		after({pollers}, {endpointId}) {
			pollers.repoll({endpointId});
		},
		howToCheck: ({endpointId}) => `the queue may be empty now: see its health (podtop snapshot --endpoints ${endpointId})`,
	},
	'endpoint.chat': {
		danger: 'write',
		describe: ({endpointId}) => `send a chat message to ${endpointId} over /compat`,
		send: sendChat,
		after({pollers}, {endpointId}) {
			pollers.repoll({endpointId});
		},
		howToCheck: ({endpointId}) => `the request may have run as a job: watch the health counters of ${endpointId}`,
	},
};
