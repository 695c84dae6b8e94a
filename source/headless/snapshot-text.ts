import {formatDollarsPerHour, formatPrice, formatWorkerRange} from '../format/numbers.js';
import {formatDuration} from '../format/duration.js';
import {sanitizeLine} from '../format/sanitize.js';
import {textTable} from '../format/text-table.js';
import {formatCostNow, meanGpuUtil, podCost} from '../store/pod-figures.js';
import type {Snapshot} from '../engine/take-snapshot.js';
import {diagnosisLines} from '../store/endpoint-diagnosis.js';

/** The snapshot as text for people: three tables under a header that says DEMO or LIVE. */
export function snapshotText(snapshot: Snapshot): string {
	const mode = snapshot.mode === 'demo' ? 'DEMO (built-in simulator)' : 'LIVE';
	return `${mode} · ${sanitizeLine(snapshot.apiHost)}${snapshot.via === 'agent' ? ' · via agent' : ''} · ${snapshot.generatedAt}\n\n${snapshotTables(snapshot)}`;
}

/** The endpoints, pods and GPU types tables of a snapshot, now or past. */
export function snapshotTables(snapshot: Snapshot): string {
	const endpoints = textTable(
		['ENDPOINT', 'NAME', 'RUN', 'IDLE', 'INIT', 'THROT', 'UNHLT', 'MIN-MAX', 'QUEUE', 'PROG', 'DONE', 'FAILED', 'RETRIED'],
		snapshot.endpoints.map(({id, name, workersMin, workersMax, health: {jobs, workers}}) => [
			id,
			name,
			String(workers.running),
			String(workers.idle),
			String(workers.initializing),
			String(workers.throttled),
			String(workers.unhealthy),
			formatWorkerRange(workersMin, workersMax),
			String(jobs.inQueue),
			String(jobs.inProgress),
			String(jobs.completed),
			String(jobs.failed),
			String(jobs.retried),
		]),
		new Set([2, 3, 4, 5, 6, 8, 9, 10, 11, 12]),
	);
	const pods = textTable(
		['POD', 'NAME', 'GPU', 'STATUS', 'GPU%', 'CPU%', 'MEM%', 'UPTIME', 'COST NOW', 'RUNNING $/H'],
		snapshot.pods.map(pod => {
			const util = meanGpuUtil(pod);
			return [
				pod.id,
				pod.name ?? '',
				`${pod.gpuCount ?? 0}× ${pod.machine?.gpuDisplayName ?? '?'}`,
				pod.desiredStatus ?? '?',
				util === undefined ? '–' : String(util),
				pod.runtime?.container?.cpuPercent?.toString() ?? '–',
				pod.runtime?.container?.memoryPercent?.toString() ?? '–',
				pod.runtime ? formatDuration(pod.runtime.uptimeInSeconds) : '–',
				formatCostNow(podCost(pod)),
				formatDollarsPerHour(pod.costPerHr),
			];
		}),
		new Set([4, 5, 6, 7, 8, 9]),
	);
	const gpus = textTable(
		['GPU TYPE', 'MEM', 'SECURE', 'COMMUNITY', 'SPOT', 'STOCK', 'FREE'],
		snapshot.gpuTypes.map(type => [
			type.id,
			`${type.memoryInGb ?? '?'}GB`,
			formatPrice(type.securePrice),
			formatPrice(type.communityPrice),
			formatPrice(type.lowestPrice?.minimumBidPrice),
			type.lowestPrice?.stockStatus ?? '–',
			String(type.lowestPrice?.maxUnreservedGpuCount ?? '–'),
		]),
		new Set([1, 2, 3, 4, 6]),
	);
	// Why jobs wait, where they do: the diagnosis of one look, with its figures.
	const diagnoses = snapshot.endpoints.flatMap(({id, name, diagnosis}) =>
		diagnosis
			? [
					`${sanitizeLine(name || id)} (${sanitizeLine(id)}) ${diagnosisLines(diagnosis)
						.map(line => sanitizeLine(line.trim()))
						.join('\n  ')}`,
				]
			: [],
	);
	return `${endpoints}\n${diagnoses.length > 0 ? `\n${diagnoses.join('\n')}\n` : ''}\n${pods}\n\n${gpus}\n`;
}
