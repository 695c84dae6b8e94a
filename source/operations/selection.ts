import {firingInOrder} from '../rows/alert-rows.js';
import {selectedIndex, selectionPlace} from '../view-state/view-reducer.js';
import {currentView, type ListPane} from '../view-state/view-state.js';
import type {OperationContext} from './operation.js';

/** The keys of the rows the user moves over now: the pane's shown rows, or the endpoint details' jobs or workers. */
export function rowKeys(context: OperationContext): string[] {
	const view = context.view.getState();
	const current = currentView(view);
	if (current.type === 'endpoint' && view.endpointFocus === 'workers') {
		return context.rows.endpointWorkerKeys(context.store.getState(), current.endpointId);
	}

	if (current.type === 'endpoint') {
		return context.rows.endpointJobs(context.store.getState(), current.endpointId, view.jobStatusFilter).rows.map(row => row.key);
	}

	if (current.type === 'alerts') {
		return firingInOrder(context.store.getState().alerts).map(alert => alert.id);
	}

	return context.rows.pane(context.store.getState(), view, view.pane).shown.map(row => row.key);
}

/** The key of the selected row, if there is one. */
export function selectedKey(context: OperationContext): string | undefined {
	const view = context.view.getState();
	const keys = rowKeys(context);
	return keys[selectedIndex(view.selected[selectionPlace(view)], keys)];
}

/** The selected row of a list pane, when that pane is the one on screen. */
export function selectedIn(context: OperationContext, pane: ListPane): string | undefined {
	const view = context.view.getState();
	return view.pane === pane && currentView(view).type === 'list' ? selectedKey(context) : undefined;
}
