import {listPanes, type ListPane, type Place} from '../view-state/view-state.js';
import {endpointWriteOperations} from './endpoint-writes.js';
import {jobViewOperations} from './job-view.js';
import {jobWriteOperations} from './job-writes.js';
import {logOpenOperations} from './log-open.js';
import {workerViewOperations} from './worker-view.js';
import {logViewOperations} from './log-view.js';
import {jobOperations} from './jobs.js';
import {navigationOperations} from './navigation.js';
import {podWriteOperations} from './pod-writes.js';
import type {Operation} from './operation.js';
import {profileOperations} from './profile.js';
import {spendOperations} from './spend.js';
import {timeTravelOperations} from './time-travel.js';
import {timelineOperations} from './timeline.js';

/** Every operation of the dashboard. */
export const operations: readonly Operation[] = [
	...navigationOperations,
	...timeTravelOperations,
	...timelineOperations,
	...spendOperations,
	...jobViewOperations,
	...logOpenOperations,
	...workerViewOperations,
	...logViewOperations,
	...jobOperations,
	...jobWriteOperations,
	...podWriteOperations,
	...endpointWriteOperations,
	...profileOperations,
];

export const places: readonly Place[] = [...listPanes, 'endpoint', 'gpu', 'pod', 'job', 'worker', 'logs', 'alerts', 'events', 'spend'];

const isListPane = (place: Place): place is ListPane => (listPanes as readonly string[]).includes(place);

export function inScope(operation: Operation, place: Place): boolean {
	return operation.scope.some(scope => scope === 'global' || scope === place || (scope === 'lists' && isListPane(place)));
}

/** The operations that work in a place; in read-only mode the writes are gone (keys, help and palette alike). */
export function operationsIn(place: Place, readOnly: boolean): Operation[] {
	return operations.filter(operation => inScope(operation, place) && !(readOnly && operation.danger !== 'read'));
}

export function operationForKey(place: Place, key: string, readOnly: boolean): Operation | undefined {
	return operationsIn(place, readOnly).find(operation => operation.keys.includes(key));
}

export function operationById(id: string): Operation | undefined {
	return operations.find(operation => operation.id === id);
}
