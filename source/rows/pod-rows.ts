import {formatDuration} from '../format/duration.js';
import {levels, sparkline, type Glyphs} from '../format/glyphs.js';
import {sanitizeLine} from '../format/sanitize.js';
import {formatCostNow, meanGpuUtil, podCost} from '../store/pod-figures.js';
import {listUtilHistoryLimit} from '../store/write-pods.js';
import type {PodRecord} from '../api/graphql-types.js';
import type {PodState} from '../store/types.js';
import type {Column, SortableRow, Tone} from './row.js';

export const podColumns = {
	wide: [
		{title: 'NAME', width: 14, flex: true},
		{title: 'GPU', width: 16},
		{title: 'STATUS', width: 10},
		{title: 'PER GPU', width: 8},
		{title: 'UTIL', width: 4, align: 'right'},
		{title: 'UTIL HISTORY', width: listUtilHistoryLimit},
		{title: 'VRAM', width: 4, align: 'right'},
		{title: 'CPU', width: 4, align: 'right'},
		{title: 'MEM', width: 4, align: 'right'},
		{title: 'UPTIME', width: 6, align: 'right'},
		{title: '$/HR', width: 9, align: 'right'},
	],
	compact: [
		{title: 'NAME', width: 10, flex: true},
		{title: 'GPU', width: 12},
		{title: 'ST', width: 4},
		{title: 'PER GPU', width: 8},
		{title: 'UTIL', width: 4, align: 'right'},
		{title: 'CPU', width: 4, align: 'right'},
		{title: '$/HR', width: 9, align: 'right'},
	],
} as const satisfies Record<string, readonly Column[]>;

type PodStatus = {readonly label: string; readonly short: string; readonly rank: number; readonly attention: boolean};

/** The known statuses, one object each (a row is made per pod at each poll). */
const running: PodStatus = {label: 'RUNNING', short: 'RUN', rank: 1, attention: false};
const starting: PodStatus = {label: 'STARTING', short: 'STRT', rank: 0, attention: true};
const exited: PodStatus = {label: 'EXITED', short: 'EXIT', rank: 3, attention: false};
const terminated: PodStatus = {label: 'TERMINATED', short: 'TERM', rank: 4, attention: false};
const unknown: PodStatus = {label: '?', short: '?', rank: 0, attention: true};

/**
A pod's status for people, ranked for the default order: pods needing attention first (asked to
run but not up, or in a state podtop does not know), then running, then the rest, exited last.
*/
export function podStatus(record: PodRecord): PodStatus {
	const status = record.desiredStatus ?? undefined;
	if (status === 'RUNNING') {
		return record.runtime ? running : starting;
	}

	if (status === 'EXITED') {
		return exited;
	}

	if (status === 'TERMINATED') {
		return terminated;
	}

	if (status === undefined) {
		return unknown;
	}

	const label = sanitizeLine(status);
	return {label, short: label.slice(0, 4), rank: 2, attention: false};
}

const percent = (value: number | null | undefined) => (value === null || value === undefined ? '–' : `${Math.round(value)}%`);
const percentLength = (value: number | null | undefined) => (value === null || value === undefined ? 1 : String(Math.round(value)).length + 1);

/** What a pod's cells and sort values are both made of. */
function podFigures(record: PodRecord) {
	const name = sanitizeLine(record.name || record.id);
	// A pod may have no GPU at all: it is a CPU pod, with no GPU bars or history.
	const cpuOnly = record.gpuCount === 0;
	const gpu = cpuOnly ? 'CPU only' : `${record.gpuCount ?? 0}× ${sanitizeLine(record.machine?.gpuDisplayName ?? '?')}`;
	const runtime = record.runtime ?? undefined;
	const gpus = runtime?.gpus ?? [];
	const vram = gpus.length > 0 ? gpus.reduce((sum, item) => sum + (item.memoryUtilPercent ?? 0), 0) / gpus.length : undefined;
	return {
		name,
		gpu,
		cpuOnly,
		runtime,
		status: podStatus(record),
		util: meanGpuUtil(record),
		vram,
		cpu: runtime?.container?.cpuPercent ?? undefined,
		memory: runtime?.container?.memoryPercent ?? undefined,
	};
}

/**
A pod's cell lengths (no history, no levels, no cells made): the column widths read every row made.
The levels are one cell a GPU; the history is padded to its column.
*/
function cellLengths(figures: ReturnType<typeof podFigures>, costLength: number, wide: boolean): Uint16Array {
	const {name, gpu, cpuOnly, runtime, status, util, vram, cpu, memory} = figures;
	const perGpu = runtime && !cpuOnly ? (runtime.gpus ?? []).length : 0;
	return Uint16Array.from(
		wide
			? [
					name.length,
					gpu.length,
					status.label.length,
					perGpu,
					percentLength(util),
					runtime && !cpuOnly ? listUtilHistoryLimit : 0,
					percentLength(vram),
					percentLength(cpu),
					percentLength(memory),
					runtime ? formatDuration(runtime.uptimeInSeconds).length : 1,
					costLength,
				]
			: [name.length, gpu.length, status.short.length, perGpu, percentLength(util), percentLength(cpu), costLength],
	);
}

/**
A row of the Pods pane. Its cells and search text are made when read (the table reads the rows on
screen; widths and the filter read each once and let go): 10,000 pods' rows kept whole were 9 MB.
*/
class PodRow implements SortableRow {
	readonly key: string;
	readonly sortValues: ReadonlyArray<string | number | undefined>;
	readonly tone: Tone | undefined;
	readonly dim: boolean;
	/** Each cell's length, as `cells` would make them: measured with the figures the row is made of, not made again by `widen`. */
	readonly #lengths: Uint16Array;

	constructor(
		private readonly pod: PodState,
		private readonly wide: boolean,
		private readonly glyphs: Glyphs,
	) {
		const {record} = pod;
		const figures = podFigures(record);
		const {name, gpu, runtime, status, util, vram, cpu, memory} = figures;
		// What the pod costs now: a stopped pod its volume, never its running price (that is in its details).
		const cost = podCost(record);
		this.key = record.id;
		this.sortValues = wide
			? [name, gpu, status.rank, util, util, util, vram, cpu, memory, runtime?.uptimeInSeconds ?? undefined, cost.now]
			: [name, gpu, status.rank, util, util, cpu, cost.now];
		this.tone = status.attention ? 'warn' : undefined;
		this.dim = status.rank > 1;
		this.#lengths = cellLengths(figures, formatCostNow(cost).length, wide);
	}

	get cells(): string[] {
		const {record, utilHistory} = this.pod;
		const {glyphs} = this;
		const {name, gpu, cpuOnly, runtime, status, util, vram, cpu, memory} = podFigures(record);
		const perGpu =
			runtime && !cpuOnly
				? levels(
						(runtime.gpus ?? []).map(item => item.gpuUtilPercent ?? 0),
						glyphs,
					)
				: '';
		const uptime = runtime ? formatDuration(runtime.uptimeInSeconds) : '–';
		const cost = formatCostNow(podCost(record));
		if (!this.wide) {
			return [name, gpu, status.short, perGpu, percent(util), percent(cpu), cost];
		}

		const history = runtime && !cpuOnly ? sparkline(utilHistory, listUtilHistoryLimit, glyphs, 100) : '';
		return [name, gpu, status.label, perGpu, percent(util), history, percent(vram), percent(cpu), percent(memory), uptime, cost];
	}

	/** Raises each width to this row's cell in that column, as `cells` would make them, without making the cells. */
	widen(widths: number[]): void {
		const lengths = this.#lengths;
		// eslint-disable-next-line unicorn/no-for-loop -- for-of over entries() made a pair per cell, per row made
		for (let column = 0; column < lengths.length; column++) {
			if (lengths[column]! > widths[column]!) {
				widths[column] = lengths[column]!;
			}
		}
	}

	get searchText(): string {
		const {record} = this.pod;
		const {name, gpu, status} = podFigures(record);
		return `${record.id} ${name} ${gpu} ${status.label} ${sanitizeLine(record.imageName ?? '')}`;
	}
}

/** Rows for the Pods pane. Stopped pods are dimmed, show no runtime figures, and cost what their volume does. */
export function podRows(pods: readonly PodState[], wide: boolean, glyphs: Glyphs): SortableRow[] {
	return pods.map(pod => new PodRow(pod, wide, glyphs));
}
