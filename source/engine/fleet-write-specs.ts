import type {PodRecord} from '../model/pod.js';
import type {AfterContext, WriteSpec} from './write-spec.js';

type FleetWriteId =
	'endpoint.scale' | 'endpoint.update' | 'endpoint.create' | 'endpoint.delete' | 'pod.stop' | 'pod.resume' | 'pod.bid-resume' | 'pod.terminate' | 'pod.deploy';

/** After a write that answers with the pod: shown at once, then the list polled again. */
function showPod({writes, pollers}: AfterContext, _target: unknown, pod: PodRecord): void {
	writes.updatePod(pod, Date.now());
	pollers.repoll({pods: true});
}

const checkPod = (podId: string) => `check with: podtop snapshot --json (pods), or the Pods pane; pod ${podId}`;

/** The management API's writes: scale and delete endpoints, stop, resume and terminate pods. */
export const fleetWriteSpecs: {readonly [Id in FleetWriteId]: WriteSpec<Id>} = {
	'endpoint.scale': {
		danger: 'write',
		describe: ({endpointId}, label) => `scale endpoint ${label('endpoint', endpointId)}`,
		send: async (api, {endpointId}, {workersMin, workersMax}) => api.updateEndpoint(endpointId, {workersMin, workersMax}),
		after({pollers}, {endpointId}) {
			pollers.repoll({endpointId, endpoints: true});
		},
		howToCheck: ({endpointId}) => `check its workers with: podtop snapshot --endpoints ${endpointId}`,
	},
	'endpoint.update': {
		danger: 'write',
		describe: ({endpointId}, label) => `update endpoint ${label('endpoint', endpointId)}`,
		send: async (api, {endpointId}, {changes}) => api.updateEndpoint(endpointId, changes),
		after({pollers}, {endpointId}) {
			pollers.repoll({endpointId, endpoints: true});
		},
		howToCheck: ({endpointId}) => `check its record with: podtop snapshot --endpoints ${endpointId} --json`,
	},
	'endpoint.create': {
		danger: 'write',
		describe: ({name}) => `create endpoint ${name}`,
		send: async (api, _target, {record}) => api.saveEndpoint(record),
		after({pollers}) {
			pollers.repoll({endpoints: true});
		},
		howToCheck: ({name}) => `an endpoint named ${name} may exist now: podtop snapshot --json lists them`,
	},
	'endpoint.delete': {
		danger: 'destructive',
		describe: ({endpointId}, label) => `delete endpoint ${label('endpoint', endpointId)}`,
		async send(api, {endpointId}) {
			await api.deleteEndpoint(endpointId);
			return undefined;
		},
		after({pollers}) {
			pollers.repoll({endpoints: true});
		},
		howToCheck: ({endpointId}) => `the endpoint may be gone: podtop snapshot --endpoints ${endpointId}`,
	},
	'pod.stop': {
		danger: 'write',
		describe: ({podId}, label) => `stop pod ${label('pod', podId)}`,
		send: async (api, {podId}) => api.stopPod(podId),
		after: showPod,
		howToCheck: ({podId}) => checkPod(podId),
	},
	'pod.resume': {
		danger: 'write',
		describe: ({podId}, label) => `resume pod ${label('pod', podId)}`,
		send: async (api, {podId}, {gpuCount}) => api.resumePod(podId, gpuCount),
		after: showPod,
		howToCheck: ({podId}) => checkPod(podId),
	},
	'pod.bid-resume': {
		danger: 'write',
		describe: ({podId}, label) => `resume spot pod ${label('pod', podId)}`,
		send: async (api, {podId}, {bidPerGpu, gpuCount}) => api.bidResumePod(podId, bidPerGpu, gpuCount),
		after: showPod,
		howToCheck: ({podId}) => checkPod(podId),
	},
	'pod.deploy': {
		danger: 'write',
		describe: ({gpuTypeId}, label) => `deploy a pod on ${label('gpu', gpuTypeId)}`,
		send: async (api, _target, {deploy, bidPerGpu}) => (bidPerGpu === undefined ? api.deployOnDemand(deploy) : api.rentInterruptable({...deploy, bidPerGpu})),
		after: showPod,
		howToCheck: () => 'a pod may have been made (and bills): look for it in the Pods pane or podtop snapshot --json',
	},
	'pod.terminate': {
		danger: 'destructive',
		describe: ({podId}, label) => `terminate pod ${label('pod', podId)}`,
		async send(api, {podId}) {
			await api.terminatePod(podId);
			return undefined;
		},
		after({writes, pollers}, {podId}) {
			writes.removePod(podId, Date.now());
			pollers.repoll({pods: true});
		},
		howToCheck: ({podId}) => checkPod(podId),
	},
};
