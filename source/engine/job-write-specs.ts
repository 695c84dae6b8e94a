import {jobKey} from '../store/job-key.js';
import {sendChat} from './chat.js';
import type {WriteSpec} from './write-spec.js';

type JobWriteId = 'job.submit' | 'endpoint.probe' | 'job.cancel' | 'job.retry' | 'endpoint.purge-queue' | 'endpoint.chat';

/** The job API's writes. */
export const jobWriteSpecs: {readonly [Id in JobWriteId]: WriteSpec<Id>} = {
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
	'endpoint.probe': {
		danger: 'write',
		describe: ({endpointId}) => `send a probe job to ${endpointId}`,
		send: async (api, {endpointId}, {request}) => api.run(endpointId, request),
		after({writes, pollers}, {endpointId}, result) {
			// Tracked like any job: the jobs loop follows it by its state, within the budgets.
			const key = writes.trackJob(endpointId, result.id);
			writes.updateJob(key, result, Date.now());
			pollers.repoll({jobKey: key});
		},
		howToCheck: ({endpointId}) => `the probe may have run: watch the health counters of ${endpointId}; it is not sent again before its next time`,
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
