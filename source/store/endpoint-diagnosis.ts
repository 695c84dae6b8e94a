import {formatDuration} from '../format/duration.js';
import type {GpuTypeRecord} from '../model/gpu-type.js';
import {diagnose, notServingAfterMs, type Diagnosis, type DiagnosisInput} from './diagnosis.js';
import type {Collection, PodtopState} from './state.js';
import type {GpuState} from './types.js';

/** The GPU types' records, by the collection they were read from: one list for every endpoint diagnosed, not one each. */
const gpuRecords = new WeakMap<Collection<GpuState>, readonly GpuTypeRecord[]>();

function gpuRecordsOf(gpus: Collection<GpuState>): readonly GpuTypeRecord[] {
	let records = gpuRecords.get(gpus);
	if (!records) {
		records = gpus.order.map(id => gpus.byId[id]!.record);
		gpuRecords.set(gpus, records);
	}

	return records;
}

/** What an endpoint's diagnosis reads from what the store holds now; undefined for an endpoint it does not hold. */
export function diagnosisInput(state: PodtopState, endpointId: string, now: number): DiagnosisInput | undefined {
	const endpoint = state.endpoints.byId[endpointId];
	if (!endpoint) {
		return undefined;
	}

	return {
		endpoint: endpoint.record,
		health: endpoint.health,
		history: endpoint.history,
		workers: state.workers.byEndpoint[endpointId],
		rollout: state.workers.rollouts[endpointId],
		gpus: gpuRecordsOf(state.gpus),
		now,
	};
}

/** An endpoint's diagnosis from what the store holds now; undefined for an endpoint it does not hold. */
export function endpointDiagnosis(state: PodtopState, endpointId: string, now: number): Diagnosis | undefined {
	const input = diagnosisInput(state, endpointId, now);
	return input && diagnose(input);
}

/** The diagnosis in a word or two for a column: the verdict, `stuck` when jobs wait unserved and nothing explains it, else empty. */
export function diagnosisWord(diagnosis: Diagnosis | undefined): string {
	const verdict = diagnosis?.findings[0];
	if (verdict) {
		return verdict.word;
	}

	return diagnosis?.unservedMs !== undefined && diagnosis.unservedMs >= notServingAfterMs ? 'stuck' : '';
}

/** The diagnosis in full, a line each: the queue and how long it went unserved, then every finding, most likely first. */
export function diagnosisLines(diagnosis: Diagnosis, workersUnavailable?: string): string[] {
	const {queue, unservedMs, findings, workersReadAt} = diagnosis;
	const waiting =
		queue === undefined
			? 'queue: not read yet'
			: queue === 0
				? 'no jobs wait'
				: `${queue} ${queue === 1 ? 'job waits' : 'jobs wait'}${unservedMs === undefined ? ', and jobs are being served' : `, none served for ${formatDuration(unservedMs / 1000)}`}`;
	const basis = workersReadAt === undefined ? ` (from /health alone: ${workersUnavailable ?? 'workers not read yet'})` : '';
	const verdict =
		findings.length === 0 ? (queue ? 'no cause found' : 'nothing wrong found') : `${findings.length === 1 ? 'cause' : 'causes, most likely first'}`;
	return [`diagnosis: ${waiting}; ${verdict}${basis}`, ...findings.map(finding => `  ${finding.text}`)];
}
