import type {ProbeOutcome, ProbeSample} from './types.js';

const outcomes = new Set<unknown>(['ok', 'failed', 'refused', 'ambiguous', 'timeout', 'lost'] satisfies ProbeOutcome[]);
const isRecord = (value: unknown): value is Record<string, unknown> => typeof value === 'object' && value !== null && !Array.isArray(value);
const time = (value: unknown) => (typeof value === 'number' && Number.isFinite(value) && value >= 0 ? value : undefined);
const ifSet = <T>(name: string, value: T | undefined) => (value === undefined ? {} : {[name]: value});

/**
A probe read back from a timeline event, or from a `probe` change event off an agent's socket
(`{endpointId, probe}`): its known fields only, of their types; undefined when it is not one.
*/
export function probeOf(at: unknown, endpointId: unknown, data: unknown): {readonly endpointId: string; readonly probe: ProbeSample} | undefined {
	const when = time(at);
	if (when === undefined || typeof endpointId !== 'string' || endpointId === '' || !isRecord(data) || !outcomes.has(data.outcome)) {
		return undefined;
	}

	return {
		endpointId,
		probe: {
			at: when,
			outcome: data.outcome as ProbeOutcome,
			...ifSet('jobId', typeof data.jobId === 'string' ? data.jobId.slice(0, 256) : undefined),
			...ifSet('delayMs', time(data.delayMs)),
			...ifSet('executionMs', time(data.executionMs)),
			...ifSet('cold', typeof data.cold === 'boolean' ? data.cold : undefined),
			...ifSet('error', typeof data.error === 'string' ? data.error.slice(0, 300) : undefined),
		},
	};
}
