import {formatDuration} from '../format/duration.js';
import {levels, sparkline, type Glyphs} from '../format/glyphs.js';
import {sanitizeLine} from '../format/sanitize.js';
import {formatCostNow, glanceOf, podCost, podGlance, type PodGlance} from '../store/pod-figures.js';
import {listUtilHistoryLimit} from '../store/write-pods.js';
import type {PodRecord} from '../model/pod.js';
import type {PodState} from '../store/types.js';
import type {Column, SortableRow, Tone} from './row.js';

export const podColumns = {
	wide: [
		{title: 'NAME', width: 14, flex: true, search: true},
		{title: 'GPU', width: 16, search: true},
		{title: 'STATUS', width: 10, search: true},
		{title: 'PER GPU', width: 8, legend: "each GPU's utilisation, a bar a GPU"},
		{title: 'UTIL', width: 4, align: 'right', legend: "GPU utilisation, its GPUs' mean"},
		{title: 'UTIL HISTORY', width: listUtilHistoryLimit},
		{title: 'VRAM', width: 4, align: 'right'},
		{title: 'CPU', width: 4, align: 'right'},
		{title: 'MEM', width: 4, align: 'right'},
		{title: 'UPTIME', width: 6, align: 'right'},
		{title: '$/HR', width: 9, align: 'right'},
	],
	compact: [
		{title: 'NAME', width: 10, flex: true, search: true},
		{title: 'GPU', width: 12, search: true},
		{title: 'ST', width: 4, search: true, legend: 'status, short: RUN running, STRT starting, EXIT exited'},
		{title: 'PER GPU', width: 8, legend: "each GPU's utilisation, a bar a GPU"},
		{title: 'UTIL', width: 4, align: 'right', legend: "GPU utilisation, its GPUs' mean"},
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
/** REST v2's own: being allocated, and an unrecoverable error in the container. */
const provisioning: PodStatus = {label: 'PROVISIONING', short: 'PROV', rank: 0, attention: true};
const failed: PodStatus = {label: 'ERROR', short: 'ERR', rank: 0, attention: true};

/**
A pod's status for people, ranked for the default order: pods needing attention first (asked to
run but not up, or in a state podtop does not know), then running, then the rest, exited last.
*/
export function podStatus(record: PodRecord | PodGlance): PodStatus {
	const status = record.desiredStatus ?? undefined;
	if (status === 'RUNNING') {
		return ('up' in record ? record.up : record.runtime) ? running : starting;
	}

	if (status === 'EXITED') {
		return exited;
	}

	if (status === 'TERMINATED') {
		return terminated;
	}

	if (status === 'STARTING') {
		return starting;
	}

	if (status === 'PROVISIONING') {
		return provisioning;
	}

	if (status === 'ERROR') {
		return failed;
	}

	if (status === undefined) {
		return unknown;
	}

	const label = sanitizeLine(status);
	return {label, short: label.slice(0, 4), rank: 2, attention: false};
}

const percent = (value: number | null | undefined) => (value === null || value === undefined ? '–' : `${Math.round(value)}%`);

/** The length of `percent(value)`, counted without making the text (a row measures four, for each of 10,000 rows made). */
function percentLength(value: number | null | undefined): number {
	if (value === null || value === undefined) {
		return 1;
	}

	const rounded = Math.round(value);
	if (!Number.isSafeInteger(rounded)) {
		return String(rounded).length + 1;
	}

	let digits = rounded < 0 ? 2 : 1;
	for (let rest = Math.abs(rounded); rest >= 10; rest = Math.floor(rest / 10)) {
		digits++;
	}

	return digits + 1;
}

function raiseWidth(widths: number[], column: number, length: number): void {
	if (length > widths[column]!) {
		widths[column] = length;
	}
}

/** The GPU cells made, by GPU type and count: one text for the rows of all pods alike (a time cursor's step makes 10,000 rows). */
const gpuCells = new Map<string, Map<number, string>>();

/** `2× H100 SXM`: the GPU cell of a pod with GPUs. */
function gpuCell(count: number, displayName: string): string {
	let byCount = gpuCells.get(displayName);
	if (!byCount) {
		// A few GPU types in any account; a bound all the same.
		if (gpuCells.size >= 256) {
			gpuCells.clear();
		}

		byCount = new Map();
		gpuCells.set(displayName, byCount);
	}

	let cell = byCount.get(count);
	if (cell === undefined) {
		cell = `${count}× ${sanitizeLine(displayName)}`;
		byCount.set(count, cell);
	}

	return cell;
}

/** What a pod's cells and sort values are both made of: its glance (a past pod's made without its record). */
function podFigures(glance: PodGlance) {
	const name = sanitizeLine(glance.name || glance.id);
	// A pod may have no GPU at all: it is a CPU pod, with no GPU bars or history.
	const cpuOnly = glance.gpuCount === 0;
	const gpu = cpuOnly ? 'CPU only' : gpuCell(glance.gpuCount ?? 0, glance.gpuDisplayName ?? '?');
	return {name, gpu, cpuOnly, status: podStatus(glance)};
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
	// The lengths of the cells `cells` would make that the sort values do not tell (name, GPU and percentages: `widen`),
	// measured with the figures the row is made of: numbers on the row, no list of them (a time cursor's step makes 10,000 rows).
	readonly #statusLength: number;
	/** The per-GPU levels: one cell a GPU. */
	readonly #perGpuLength: number;
	/** The history, padded to its column, or nothing. */
	readonly #historyLength: number;
	readonly #uptimeLength: number;
	readonly #costLength: number;

	constructor(
		private readonly pod: PodState,
		private readonly wide: boolean,
		private readonly glyphs: Glyphs,
	) {
		const glance = podGlance(pod);
		const {name, gpu, cpuOnly, status} = podFigures(glance);
		const {up, util, vram, cpu, memory, uptimeInSeconds} = glance;
		// What the pod costs now: a stopped pod its volume, never its running price (that is in its details).
		const cost = podCost(glance);
		this.key = glance.id;
		this.sortValues = wide
			? [name, gpu, status.rank, util, util, util, vram, cpu, memory, uptimeInSeconds, cost.now]
			: [name, gpu, status.rank, util, util, cpu, cost.now];
		this.tone = status.attention ? 'warn' : undefined;
		this.dim = status.rank > 1;
		this.#statusLength = wide ? status.label.length : status.short.length;
		this.#perGpuLength = up && !cpuOnly ? glance.gpus : 0;
		this.#historyLength = up && !cpuOnly ? listUtilHistoryLimit : 0;
		this.#uptimeLength = up ? formatDuration(uptimeInSeconds).length : 1;
		this.#costLength = formatCostNow(cost).length;
	}

	get cells(): string[] {
		const {record, utilHistory} = this.pod;
		const {glyphs} = this;
		const glance = glanceOf(record);
		const {name, gpu, cpuOnly, status} = podFigures(glance);
		const {up, util, vram, cpu, memory, uptimeInSeconds} = glance;
		const perGpu =
			up && !cpuOnly
				? levels(
						(record.runtime?.gpus ?? []).map(item => item.gpuUtilPercent ?? 0),
						glyphs,
					)
				: '';
		const uptime = up ? formatDuration(uptimeInSeconds) : '–';
		const cost = formatCostNow(podCost(record));
		if (!this.wide) {
			return [name, gpu, status.short, perGpu, percent(util), percent(cpu), cost];
		}

		const history = up && !cpuOnly ? sparkline(utilHistory, listUtilHistoryLimit, glyphs, 100) : '';
		return [name, gpu, status.label, perGpu, percent(util), history, percent(vram), percent(cpu), percent(memory), uptime, cost];
	}

	/** Raises each width to this row's cell in that column, as `cells` would make them, without making the cells. */
	widen(widths: number[]): void {
		const values = this.sortValues;
		// The name and the GPU are the first two sort values; the percentages are in their columns' places.
		raiseWidth(widths, 0, (values[0] as string).length);
		raiseWidth(widths, 1, (values[1] as string).length);
		raiseWidth(widths, 2, this.#statusLength);
		raiseWidth(widths, 3, this.#perGpuLength);
		raiseWidth(widths, 4, percentLength(values[4] as number | undefined));
		if (this.wide) {
			raiseWidth(widths, 5, this.#historyLength);
			raiseWidth(widths, 6, percentLength(values[6] as number | undefined));
			raiseWidth(widths, 7, percentLength(values[7] as number | undefined));
			raiseWidth(widths, 8, percentLength(values[8] as number | undefined));
			raiseWidth(widths, 9, this.#uptimeLength);
			raiseWidth(widths, 10, this.#costLength);
		} else {
			raiseWidth(widths, 5, percentLength(values[5] as number | undefined));
			raiseWidth(widths, 6, this.#costLength);
		}
	}

	/** The name, GPU and status columns (a short status also as its word: `RUN` is `RUNNING`); not the id or image, which the row does not show. */
	get searchText(): string {
		const {name, gpu, status} = podFigures(glanceOf(this.pod.record));
		return `${name}\n${gpu}\n${this.wide ? status.label : `${status.short}\n${status.label}`}`;
	}
}

/** Rows for the Pods pane. Stopped pods are dimmed, show no runtime figures, and cost what their volume does. */
export function podRows(pods: readonly PodState[], wide: boolean, glyphs: Glyphs): SortableRow[] {
	return pods.map(pod => new PodRow(pod, wide, glyphs));
}
