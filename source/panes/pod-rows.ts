import type {Column} from '../components/table.js';
import {formatDuration} from '../format/duration.js';
import {levels, sparkline, type Glyphs} from '../format/glyphs.js';
import {formatDollarsPerHour} from '../format/numbers.js';
import {sanitizeLine} from '../format/sanitize.js';
import {meanGpuUtil} from '../store/pod-actions.js';
import type {PodState} from '../store/types.js';
import type {SortableRow} from './sort-rows.js';

export const podColumns = {
	wide: [
		{title: 'NAME', width: 14, flex: true},
		{title: 'GPU', width: 16},
		{title: 'STATUS', width: 7},
		{title: 'PER GPU', width: 8},
		{title: 'UTIL', width: 4, align: 'right'},
		{title: 'UTIL HISTORY', width: 12},
		{title: 'VRAM', width: 4, align: 'right'},
		{title: 'CPU', width: 4, align: 'right'},
		{title: 'MEM', width: 4, align: 'right'},
		{title: 'UPTIME', width: 6, align: 'right'},
		{title: '$/HR', width: 8, align: 'right'},
	],
	compact: [
		{title: 'NAME', width: 10, flex: true},
		{title: 'GPU', width: 12},
		{title: 'ST', width: 4},
		{title: 'PER GPU', width: 8},
		{title: 'UTIL', width: 4, align: 'right'},
		{title: 'CPU', width: 4, align: 'right'},
		{title: '$/HR', width: 8, align: 'right'},
	],
} as const satisfies Record<string, readonly Column[]>;

const percent = (value: number | null | undefined) => (value === null || value === undefined ? '–' : `${Math.round(value)}%`);

/** Rows for the Pods pane. Stopped pods are dimmed and show no runtime figures. */
export function podRows(pods: readonly PodState[], wide: boolean, glyphs: Glyphs): SortableRow[] {
	return pods.map(({record, utilHistory}) => {
		const name = sanitizeLine(record.name || record.id);
		const gpu = `${record.gpuCount ?? 0}× ${sanitizeLine(record.machine?.gpuDisplayName ?? '?')}`;
		const status = record.desiredStatus ?? '?';
		const runtime = record.runtime ?? undefined;
		const gpus = runtime?.gpus ?? [];
		const util = meanGpuUtil(record);
		const vram = gpus.length > 0 ? gpus.reduce((sum, item) => sum + (item.memoryUtilPercent ?? 0), 0) / gpus.length : undefined;
		const perGpu = runtime ? levels(gpus.map(item => item.gpuUtilPercent ?? 0), glyphs) : '';
		const history = runtime ? sparkline(utilHistory, 12, glyphs, 100) : '';
		const cpu = runtime?.container?.cpuPercent;
		const memory = runtime?.container?.memoryPercent;
		const uptime = runtime ? formatDuration(runtime.uptimeInSeconds) : '–';
		const cost = formatDollarsPerHour(record.costPerHr);
		const short = status === 'RUNNING' ? 'RUN' : (status === 'EXITED' ? 'EXIT' : status.slice(0, 4));
		const cells = wide
			? [name, gpu, status, perGpu, percent(util), history, percent(vram), percent(cpu), percent(memory), uptime, cost]
			: [name, gpu, short, perGpu, percent(util), percent(cpu), cost];
		const sortValues = wide
			? [name, gpu, status, util, util, util, vram, cpu ?? undefined, memory ?? undefined, runtime?.uptimeInSeconds ?? undefined, record.costPerHr ?? undefined]
			: [name, gpu, status, util, util, cpu ?? undefined, record.costPerHr ?? undefined];
		return {key: record.id, cells, sortValues, searchText: `${record.id} ${name} ${gpu} ${status} ${record.imageName ?? ''}`, dim: status !== 'RUNNING'};
	});
}
