import type {ListPane} from '../view-state/view-state.js';
import {endpointColumns} from './endpoint-rows.js';
import {gpuColumns} from './gpu-rows.js';
import {podColumns} from './pod-rows.js';
import type {Column} from './row.js';

const columnsOf: Readonly<Record<ListPane, {readonly wide: readonly Column[]; readonly compact: readonly Column[]}>> = {
	endpoints: endpointColumns,
	pods: podColumns,
	gpus: gpuColumns,
};

/** The fields the `/` filter matches in a pane, as the filter bar names them: the columns shown that it searches (`name, gpu, status`). */
export function filterFields(pane: ListPane, wide: boolean): string[] {
	return columnsOf[pane][wide ? 'wide' : 'compact'].filter(column => column.search).map(column => column.title.toLowerCase());
}
