import type {Glyphs} from '../format/glyphs.js';
import type {Collection, PodtopState, TrackedJobs} from '../store/state.js';
import type {TrackedJob} from '../store/types.js';
import type {EndpointWorkers} from '../store/worker-track.js';
import {isWide} from '../view-state/layout.js';
import {type JobStatusFilter, type ListPane, type SortState, type ViewState, windowMs} from '../view-state/view-state.js';
import {endpointColumnsFor, endpointRows, type EndpointExtra, type ProbeWindow} from './endpoint-rows.js';
import {gpuColumns, gpuRows} from './gpu-rows.js';
import {jobColumns, jobImage, jobLines, jobRows, matchesStatusFilter, splitJobBody, type JobBody} from './job-rows.js';
import {podColumns, podRows} from './pod-rows.js';
import {goneWorkers, workerRows} from './worker-rows.js';
import {ColumnWidths} from './column-widths.js';
import {contentWidths, type Column, type Row, type SortableRow} from './row.js';
import {sortShown, type LastShown} from './sort-rows.js';

/** A list pane's rows as shown: all of them (for the count), the filtered and sorted ones, and each column's content width. */
export type PaneRows = {
	readonly columns: readonly Column[];
	readonly all: readonly SortableRow[];
	readonly shown: readonly SortableRow[];
	readonly widths: readonly number[];
};

export type EndpointJobRows = {
	readonly rows: readonly Row[];
	readonly widths: readonly number[];
	/** How many jobs are tracked on the endpoint, before the status filter. */
	readonly tracked: number;
};

type Memoized<Inputs extends readonly unknown[], Result> = ((...inputs: Inputs) => Result) & {
	/** Lets go of the last answer (its rows may be many). */
	readonly forget: () => void;
};

/** Remembers the last answer of `compute` and returns it while the inputs are the same objects. */
function memoize<Inputs extends readonly unknown[], Result>(compute: (...inputs: Inputs) => Result): Memoized<Inputs, Result> {
	let last: {inputs: Inputs; result: Result} | undefined;
	const memoized = (...inputs: Inputs) => {
		if (last?.inputs.length === inputs.length && last.inputs.every((input, index) => Object.is(input, inputs[index]))) {
			return last.result;
		}

		const result = compute(...inputs);
		last = {inputs, result};
		return result;
	};

	return Object.assign(memoized, {
		forget() {
			last = undefined;
		},
	});
}

/** Whether two lists of ids are the same ids in the same order. */
function sameIds(a: readonly string[], b: readonly string[]): boolean {
	if (a === b) {
		return true;
	}

	if (a.length !== b.length) {
		return false;
	}

	// eslint-disable-next-line unicorn/no-for-loop -- by index over two lists
	for (let index = 0; index < a.length; index++) {
		if (a[index] !== b[index]) {
			return false;
		}
	}

	return true;
}

type Built = {readonly columns: readonly Column[]; readonly all: readonly SortableRow[]; readonly widths: readonly number[]};

function paneSelector<T, Extra = undefined>(
	build: (items: readonly T[], wide: boolean, glyphs: Glyphs, extra: Extra) => SortableRow[],
	columns: {readonly wide: readonly Column[]; readonly compact: readonly Column[]} | ((wide: boolean, extra: Extra) => readonly Column[]),
	glyphs: Glyphs,
) {
	/** The last build: the things' ids, their states and rows in that order, and what they were made for. */
	let last:
		| {
				readonly wide: boolean;
				readonly extra: Extra;
				readonly order: readonly string[];
				readonly items: readonly T[];
				readonly all: readonly SortableRow[];
				readonly widths: ColumnWidths;
		  }
		| undefined;
	const built = memoize((collection: Collection<T>, wide: boolean, extra: Extra): Built => {
		const {order, byId} = collection;
		const items: T[] = [];
		for (const id of order) {
			const item = byId[id];
			if (item !== undefined && item !== null) {
				items.push(item);
			}
		}

		const shape = typeof columns === 'function' ? columns(wide, extra) : wide ? columns.wide : columns.compact;
		// A thing whose state did not change keeps its row: a poll of the rows on screen remakes a few dozen rows of thousands.
		const before = last?.wide === wide && Object.is(last.extra, extra) ? last : undefined;
		// The same ids in the same order (a poll, a time cursor's step): a state kept is at its place, and the row let go for a
		// new one is the one there, so no map of thousands of states is made. Otherwise the last rows are found by state.
		const inPlace = before !== undefined && items.length === order.length && sameIds(before.order, order) && before.items.length === items.length;
		const byItem = before && !inPlace ? new Map(before.items.map((item, index) => [item, before.all[index]!])) : undefined;
		const keptAt = (item: T, index: number) => (inPlace ? (before.items[index] === item ? before.all[index] : undefined) : byItem?.get(item));
		const fresh = before ? items.filter((item, index) => keptAt(item, index) === undefined) : items;
		const made = build(fresh, wide, glyphs, extra);
		// The rows made are in the order of `fresh`: the items not kept, in order.
		let next = 0;
		const all = items.map((item, index) => keptAt(item, index) ?? made[next++]!);
		// The widths follow the rows: those let go are taken out, those made are measured; when most rows are new (a time
		// cursor's step of thousands of pods), every row is measured afresh instead of taking out as many.
		const widths = before && made.length <= all.length / 2 ? before.widths : new ColumnWidths(shape);
		const afresh = widths !== before?.widths;
		if (!afresh && before) {
			const stays = inPlace ? undefined : new Set(items);
			// By index: an entry pair per row (2,000 at every poll of the rows on screen) for nothing.
			for (let index = 0; index < before.items.length; index++) {
				const item = before.items[index]!;
				if (inPlace ? items[index] !== item : !stays!.has(item)) {
					widths.remove(before.all[index]!);
				}
			}
		}

		for (const row of afresh ? all : made) {
			widths.add(row);
		}

		last = {wide, extra, order, items, all, widths};
		return {columns: shape, all, widths: widths.widths()};
	});
	/** What was shown last: a poll's rows are tried in its order before they are sorted. */
	let lastShown: LastShown<SortableRow> | undefined;
	const shown = memoize((rows: Built, filter: string, sort: SortState): PaneRows => {
		lastShown = sortShown(rows.all, filter, sort, lastShown);
		return {...rows, shown: lastShown.rows};
	});
	return {
		select: (collection: Collection<T>, wide: boolean, filter: string, sort: SortState, extra: Extra) => shown(built(collection, wide, extra), filter, sort),
		forget() {
			built.forget();
			shown.forget();
			last = undefined;
			lastShown = undefined;
		},
	};
}

/**
The probes' window for the Endpoints pane, one per set of row selectors: undefined without probes;
the same object while nothing it depends on changed (the rows stay memoized).
*/
function createProbeWindow() {
	let last: ProbeWindow | undefined;
	return (state: PodtopState, view: Partial<Pick<ViewState, 'windows' | 'cursor'>>): ProbeWindow | undefined => {
		const {probes} = state;
		if (!probes.configured) {
			return undefined;
		}

		const span = windowMs[view.windows?.endpoints ?? '1h'];
		// Live, the window ends at the newest probe (rebuilt when one arrives); at the time cursor, there.
		const to = view.cursor ?? Math.max(0, ...Object.values(probes.byEndpoint).map(list => list.at(-1)?.at ?? 0));
		if (last?.probes !== probes || last.to !== to || last.to - last.from !== span) {
			last = {probes, from: to - span, to};
		}

		return last;
	};
}

/** The columns a list pane shows at a width (the Endpoints pane's probe columns while probe rules exist): what `?` explains. */
export function paneColumns(pane: ListPane, wide: boolean, probing: boolean): readonly Column[] {
	switch (pane) {
		case 'endpoints': {
			return endpointColumnsFor(wide, probing);
		}

		case 'pods': {
			return wide ? podColumns.wide : podColumns.compact;
		}

		case 'gpus': {
			return wide ? gpuColumns.wide : gpuColumns.compact;
		}
	}
}

/**
The rows every part of the dashboard agrees on: the panes draw them, the keys move over them and
act on them. Each is rebuilt only when its inputs change (a poll, the filter, the sort, a resize).
*/
export function createRowSelectors(glyphs: Glyphs, options: {readonly pictures?: boolean} = {}) {
	const pictures = options.pictures ?? false;
	const probeWindow = createProbeWindow();
	// The same object while the probes' window, the workers and the GPU types are the same: the rows stay memoized.
	const endpointExtra = memoize((window: ProbeWindow | undefined, workers: PodtopState['workers'], gpus: PodtopState['gpus']): EndpointExtra => ({
		probeWindow: window,
		workers,
		gpus,
	}));
	const panes = {
		endpoints: paneSelector(
			endpointRows,
			// A probe window exists only while probe rules do: then the P95 and COLD% columns show.
			(wide: boolean, extra: EndpointExtra) => endpointColumnsFor(wide, extra.probeWindow !== undefined),
			glyphs,
		),
		pods: paneSelector(podRows, podColumns, glyphs),
		gpus: paneSelector(gpuRows, gpuColumns, glyphs),
	};
	const endpointJobs = memoize((jobs: TrackedJobs, endpointId: string, filter: JobStatusFilter): EndpointJobRows => {
		const tracked = [...jobs.byKey.values()].filter(job => job.endpointId === endpointId);
		const rows = jobRows(tracked.filter(job => matchesStatusFilter(job.status, filter)));
		return {rows, widths: contentWidths(jobColumns, rows), tracked: tracked.length};
	});
	// The order the details draw the workers in (uptimes move on together, so the read's time orders them as now would).
	const workerKeys = memoize((workers: EndpointWorkers | undefined, gpus: PodtopState['gpus']): string[] =>
		workers
			? [
					...workerRows(
						workers,
						gpus.order.map(id => gpus.byId[id]!.record),
						workers.list.readAt,
					).map(row => row.key),
					...goneWorkers(workers).map(gone => gone.id),
				]
			: [],
	);
	const lines = memoize((job: TrackedJob | undefined, width: number) => (job ? jobLines(job, width) : []));
	const image = memoize((job: TrackedJob | undefined) => jobImage(job));
	const listPanes = Object.keys(panes) as ListPane[];
	let lastPane: ListPane | undefined;
	return {
		/** `windows` and `cursor` set the span the probes' figures are over (the pane's window, ending at the time cursor or now). */
		pane(state: PodtopState, view: Pick<ViewState, 'columns' | 'filter' | 'sort'> & Partial<Pick<ViewState, 'windows' | 'cursor'>>, pane: ListPane): PaneRows {
			const wide = isWide(view.columns);
			const filter = view.filter[pane];
			const sort = view.sort[pane];
			// One list pane is shown at a time: the rows of the others are let go (10,000 pods' rows are
			// 3 MB) and built again when their pane comes back, as every poll of a shown pane does anyway.
			if (pane !== lastPane) {
				for (const other of listPanes.filter(name => name !== pane)) {
					panes[other].forget();
				}

				lastPane = pane;
			}

			switch (pane) {
				case 'endpoints': {
					return panes.endpoints.select(state.endpoints, wide, filter, sort, endpointExtra(probeWindow(state, view), state.workers, state.gpus));
				}

				case 'pods': {
					return panes.pods.select(state.pods, wide, filter, sort, undefined);
				}

				case 'gpus': {
					return panes.gpus.select(state.gpus, wide, filter, sort, undefined);
				}
			}
		},
		/** The tracked jobs of one endpoint that pass the status filter. */
		endpointJobs: (state: PodtopState, endpointId: string, filter: JobStatusFilter) => endpointJobs(state.jobs, endpointId, filter),
		/** The keys of the endpoint details' workers as drawn: those listed (the most troubled first), then the gone (newest first). */
		endpointWorkerKeys: (state: PodtopState, endpointId: string) => workerKeys(state.workers.byEndpoint[endpointId], state.gpus),
		jobLines: (job: TrackedJob | undefined, width: number) => lines(job, width),
		/** The job view's body `rows` high: its text lines, and the box for the job's picture above them. */
		jobBody: (job: TrackedJob | undefined, width: number, rows: number): JobBody => splitJobBody(lines(job, width), image(job), rows, pictures),
	};
}

export type RowSelectors = ReturnType<typeof createRowSelectors>;
