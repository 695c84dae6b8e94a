import {formatClock} from '../format/clock.js';
import {formatDuration} from '../format/duration.js';
import {sanitizeLine} from '../format/sanitize.js';
import {textTable} from '../format/text-table.js';
import type {WorkersReport} from '../engine/read-workers.js';
import {diagnosisLines} from '../store/endpoint-diagnosis.js';
import {rolloutLine} from '../store/rollout-text.js';

/** `podtop workers` for people: the endpoint, the diagnosis in full, the rollout and the workers table. Every service text is sanitised. */
export function workersText({endpoint, workers, rollout, diagnosis}: WorkersReport, now: number): string {
	const title = `${sanitizeLine(endpoint.name)} (${sanitizeLine(endpoint.id)}) · ${workers.workers.length} active worker${workers.workers.length === 1 ? '' : 's'}${
		workers.endpointVersion === undefined ? '' : ` · release v${workers.endpointVersion}`
	}`;
	const table =
		workers.workers.length === 0
			? 'no active worker'
			: textTable(
					['WORKER', 'STATUS', 'VERSION', 'GPU', 'DATA CENTER', 'UPTIME', 'STARTED'],
					workers.workers.map(worker => [
						worker.id,
						worker.status,
						`${worker.isStale ? 'stale ' : ''}${worker.version === undefined ? '–' : `v${worker.version}`}`,
						worker.gpuTypeId ? `${worker.gpuCount ?? 1}× ${worker.gpuTypeId}` : '–',
						worker.dataCenterId ?? '–',
						formatDuration(worker.uptimeSeconds),
						worker.startedAt === undefined ? '–' : formatClock(worker.startedAt, now),
					]),
					new Set([5]),
				);
	return [title, ...diagnosisLines(diagnosis).map(line => sanitizeLine(line)), rolloutLine(rollout, now), '', table, ''].join('\n');
}
