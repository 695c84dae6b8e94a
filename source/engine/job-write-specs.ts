import {jobKey} from '../store/job-key.js';
import {sendChat} from './chat.js';
import {loadRecord} from './load-record.js';
import type {WriteSpec} from './write-spec.js';

type JobWriteId = 'job.submit' | 'endpoint.probe' | 'job.cancel' | 'job.retry' | 'endpoint.purge-queue' | 'endpoint.chat' | 'endpoint.load';

/** The job API's writes. */
export const jobWriteSpecs: {readonly [Id in JobWriteId]: WriteSpec<Id>} = {
	'job.submit': {
		danger: 'write',
		describe: ({endpointId}, label) => `submit a job to ${label('endpoint', endpointId)}`,
		send: async (api, {endpointId}, {request, sync}) => (sync ? api.runSync(endpointId, request, sync.waitMs) : api.run(endpointId, request)),
		after({writes, pollers}, {endpointId}, result) {
			const key = writes.trackJob(endpointId, result.id, {submitted: true});
			writes.updateJob(key, result, Date.now());
			pollers.repoll({jobKey: key, endpointId});
		},
		howToCheck: ({endpointId}) => `the job may exist: watch the queue of ${endpointId} (its health counters), or the webhook if you set one`,
	},
	'endpoint.probe': {
		danger: 'write',
		describe: ({endpointId}, label) => `send a probe job to ${label('endpoint', endpointId)}`,
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
		describe: ({endpointId, jobId}, label) => `cancel job ${jobId} on ${label('endpoint', endpointId)}`,
		send: async (api, {endpointId, jobId}) => api.cancel(endpointId, jobId),
		after({pollers}, target) {
			pollers.repoll({jobKey: jobKey(target.endpointId, target.jobId), endpointId: target.endpointId});
		},
		howToCheck: ({endpointId, jobId}) => `check with: podtop job ${endpointId} ${jobId}`,
	},
	'job.retry': {
		danger: 'write',
		describe: ({endpointId, jobId}, label) => `retry job ${jobId} on ${label('endpoint', endpointId)}`,
		send: async (api, {endpointId, jobId}) => api.retry(endpointId, jobId),
		after({pollers}, target) {
			pollers.repoll({jobKey: jobKey(target.endpointId, target.jobId), endpointId: target.endpointId});
		},
		howToCheck: ({endpointId, jobId}) => `check with: podtop job ${endpointId} ${jobId}`,
	},
	'endpoint.purge-queue': {
		danger: 'destructive',
		describe: ({endpointId}, label) => `purge the queue of ${label('endpoint', endpointId)}`,
		send: async (api, {endpointId}) => api.purgeQueue(endpointId),
		after({pollers}, {endpointId}) {
			pollers.repoll({endpointId});
		},
		howToCheck: ({endpointId}) => `the queue may be empty now: see its health (podtop snapshot --endpoints ${endpointId})`,
	},
	'endpoint.chat': {
		danger: 'write',
		describe: ({endpointId}, label) => `send a chat message to ${label('endpoint', endpointId)} over /compat`,
		send: sendChat,
		after({pollers}, {endpointId}) {
			pollers.repoll({endpointId});
		},
		howToCheck: ({endpointId}) => `the request may have run as a job: watch the health counters of ${endpointId}`,
	},
	'endpoint.load': {
		danger: 'write',
		describe: ({endpointId}, label) => `send a load of jobs to ${label('endpoint', endpointId)}`,
		async send(api, _target, {run}) {
			const summary = await run.run(api);
			// Refused before any job was accepted (no key, no endpoint): the write failed, with the service's reason.
			const {fatal} = run;
			if (summary.jobs.sent === 0 && fatal) {
				throw fatal;
			}

			return summary;
		},
		after({pollers}, {endpointId}) {
			pollers.repoll({endpointId});
		},
		howToCheck: ({endpointId}) => `jobs may have been sent: watch the health counters of ${endpointId}`,
		digestOf: ({run}) => ({request: run.plan.request, rate: run.plan.ratePerSecond, jobs: run.plan.jobs, sync: run.plan.sync ?? false}),
		auditFields: summary => ({count: summary.jobs.sent, summary: loadRecord(summary)}),
	},
};
