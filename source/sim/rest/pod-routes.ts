import {parseLogQuery} from '../logs/log-query.js';
import {streamLog} from '../logs/log-stream.js';
import type {SimPod} from '../pods/pod.js';
import type {Simulator} from '../simulator.js';
import {checkBody} from './body-check.js';
import {applyPodPatch, deployInputOf} from './pod-input.js';
import {podResource} from './pod-resource.js';
import {podActions, podStatus, type PodAction} from './pod-status.js';
import {invalid, RestError} from './rest-error.js';
import {created, eventStream, noContent, ok, type RestRoute} from './router.js';

const podActionNames: readonly PodAction[] = ['start', 'stop', 'restart', 'terminate'];

function requirePod(sim: Simulator, id: string): SimPod {
	const pod = sim.pods.get(id);
	if (!pod) {
		throw new RestError(404, `pod ${id} not found`);
	}

	return pod;
}

function act(sim: Simulator, pod: SimPod, action: PodAction): SimPod | undefined {
	const status = podStatus(pod, sim.clock.now());
	if (!podActions(pod, status).includes(action)) {
		throw new RestError(
			409,
			`cannot ${action} pod ${pod.id}: it is ${status}${pod.locked ? ' and locked' : ''}; valid now: ${podActions(pod, status).join(', ') || 'none'}`,
		);
	}

	switch (action) {
		case 'start': {
			return pod.interruptible ? sim.pods.bidResume(pod.id, pod.bidPerGpu ?? 0) : sim.pods.resume(pod.id);
		}

		case 'stop': {
			return sim.pods.stop(pod.id);
		}

		case 'restart': {
			return sim.pods.restart(pod.id);
		}

		default: {
			sim.pods.terminate(pod.id);
			return undefined;
		}
	}
}

/** `/v2/pods`: list (with runtime, one request for all), get, create, PATCH, delete, `/action`, and `/logs` (server-sent events). */
export const podRoutes: readonly RestRoute[] = [
	{
		path: '/pods',
		methods: {
			GET({sim, query}) {
				query.boolean('includeClusterPods');
				return ok({pods: sim.pods.list().map(pod => podResource(pod, sim.clock))});
			},
			async POST({sim, body}) {
				const pod = sim.pods.deploy(deployInputOf(await body()), false);
				return created(podResource(pod, sim.clock));
			},
		},
	},
	{
		path: '/pods/{id}',
		methods: {
			GET: ({sim, params}) => ok(podResource(requirePod(sim, params.id!), sim.clock)),
			async PATCH({sim, params, body}) {
				const pod = requirePod(sim, params.id!);
				applyPodPatch(pod, await body(), sim.clock.now());
				sim.pods.changed(pod);
				return ok(podResource(pod, sim.clock));
			},
			DELETE({sim, params}) {
				sim.pods.terminate(requirePod(sim, params.id!).id);
				return noContent;
			},
		},
	},
	{
		path: '/pods/{id}/action',
		methods: {
			async POST({sim, params, body}) {
				const pod = requirePod(sim, params.id!);
				const request = await body();
				checkBody(request, {action: 'string'}, '$', ['action']);
				if (!(podActionNames as readonly string[]).includes(request.action as string)) {
					throw invalid([`$.action: must be one of ${podActionNames.join(', ')}`]);
				}

				const after = act(sim, pod, request.action as PodAction);
				return after ? ok(podResource(after, sim.clock)) : noContent;
			},
		},
	},
	{
		path: '/pods/{id}/logs',
		methods: {
			GET({sim, params, query, request}) {
				const pod = requirePod(sim, params.id!);
				const logQuery = parseLogQuery(query, request.headers['last-event-id'] as string | undefined);
				return eventStream(response => {
					// Counted per endpoint or pod (`/__sim/stats`): a test proves an agent holds one stream for all its clients.
					response.once('close', sim.stats.begin(pod.id, 'logStream'));
					streamLog(response, sim.pods.logs.of(pod), logQuery);
				});
			},
		},
	},
];
