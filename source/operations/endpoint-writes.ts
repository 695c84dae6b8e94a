import type {EndpointInput} from '../model/endpoint.js';
import {sanitizeLine} from '../format/sanitize.js';
import {endpointEditForm, endpointNewForm, type EndpointSave} from '../forms/endpoint-form.js';
import {currentView} from '../view-state/view-state.js';
import {defineOperation, unavailable, type Operation, type OperationContext, type Unavailable} from './operation.js';
import {endpointIdNamed} from './endpoint-named.js';
import {performFromUi, writeTarget} from './report.js';
import {selectedIn} from './selection.js';

type EndpointTarget = {readonly endpointId: string; readonly name: string};

/** The endpoint a palette argument names (by name or id), else the one the user is on. */
function endpointTarget(context: OperationContext, named?: string): EndpointTarget | Unavailable {
	return writeTarget(
		context,
		() => {
			const view = currentView(context.view.getState());
			const state = context.store.getState();
			const endpointId = named === undefined ? (view.type === 'endpoint' ? view.endpointId : selectedIn(context, 'endpoints')) : endpointIdNamed(state, named);
			const record = endpointId ? state.endpoints.byId[endpointId]?.record : undefined;
			return record ? {endpointId: record.id, name: sanitizeLine(record.name)} : undefined;
		},
		named === undefined ? 'no endpoint selected' : `no endpoint "${sanitizeLine(named)}" in this account (one name or id)`,
	);
}

/** The endpoint's record when it still has workers (the service deletes only at 0 and 0), else undefined. */
function withWorkers(context: OperationContext, endpointId: string) {
	const record = context.store.getState().endpoints.byId[endpointId]?.record;
	return record && (record.workersMin !== 0 || record.workersMax !== 0) ? record : undefined;
}

/** The delete's own question: the name typed out. */
const deleteQuestion = (name: string) => ({prompt: `Delete endpoint ${name}? Its jobs and workers go with it.`, typeToConfirm: name});

/** Edit, create, scale and delete endpoints (scaling to zero first when a delete needs it). */
export const endpointWriteOperations: readonly Operation[] = [
	defineOperation<EndpointTarget & {readonly form?: EndpointSave}>({
		id: 'endpoint.edit',
		title: 'edit the endpoint: workers, idle timeout, scaler, GPU pools, locations, network volume',
		keys: ['e'],
		scope: ['endpoints', 'endpoint'],
		danger: 'write',
		hint: 'edit',
		target: context => endpointTarget(context),
		form({endpointId, name}, context) {
			const record = context.store.getState().endpoints.byId[endpointId]?.record;
			return record ? {spec: endpointEditForm(record), draftKey: `endpoint-edit:${endpointId}`, title: `Edit endpoint ${name}`} : undefined;
		},
		// The whole record is read again and sent back with these changes: the service replaces it on save.
		confirm: ({name, form}) => ({prompt: `Save ${name}: ${form?.summary ?? ''}?`}),
		async run(context, {endpointId, name, form}) {
			if (form) {
				await performFromUi(context, 'endpoint.update', {endpointId}, {changes: form.changes}, `saving ${name}`);
			}
		},
	}),
	defineOperation<{readonly form?: EndpointSave}>({
		id: 'endpoint.new',
		title: 'new endpoint: :endpoint new',
		keys: [],
		scope: ['global'],
		danger: 'write',
		palette: {name: 'endpoint'},
		target: (context, [what, ...rest]) =>
			what === 'new' && rest.length === 0 ? writeTarget(context, () => ({}), 'no endpoint') : unavailable('usage: :endpoint new'),
		form: () => ({spec: endpointNewForm, draftKey: 'endpoint-new', title: 'New endpoint'}),
		confirm: ({form}) => ({prompt: `Create the endpoint: ${form?.summary ?? ''}?`}),
		async run(context, {form}) {
			if (!form) {
				return;
			}

			const record = form.changes as EndpointInput;
			const result = await performFromUi(context, 'endpoint.create', {name: record.name ?? ''}, {record}, `creating ${sanitizeLine(record.name ?? '')}`);
			if (result?.outcome === 'ok' && result.value) {
				context.view.dispatch({type: 'select', pane: 'endpoints', key: result.value.id});
			}
		},
	}),
	defineOperation<EndpointTarget>({
		id: 'endpoint.delete',
		title: 'delete the endpoint (offers to scale it to zero first)',
		keys: ['ctrl-d'],
		scope: ['endpoints', 'endpoint'],
		danger: 'destructive',
		hint: 'delete',
		target: context => endpointTarget(context),
		confirm({endpointId, name}, context) {
			const record = withWorkers(context, endpointId);
			if (record) {
				return {
					prompt: `${name} has workers (min ${record.workersMin ?? '?'}, max ${record.workersMax ?? '?'}); the service deletes only at 0 and 0. Scale it to zero first?`,
				};
			}

			return deleteQuestion(name);
		},
		async run(context, target) {
			if (withWorkers(context, target.endpointId)) {
				// The y above was for the scale, a write of its own; the delete asks again, by name.
				const scaled = await performFromUi(
					context,
					'endpoint.scale',
					{endpointId: target.endpointId},
					{workersMin: 0, workersMax: 0},
					`scaling ${target.name} to zero`,
				);
				if (scaled?.outcome === 'ok') {
					context.view.dispatch({
						type: 'confirm',
						operationId: 'endpoint.delete.confirmed',
						target,
						...deleteQuestion(target.name),
						prompt: `Scaled to zero. ${deleteQuestion(target.name).prompt}`,
					});
				}

				return;
			}

			await performFromUi(context, 'endpoint.delete', {endpointId: target.endpointId}, undefined, `deleting ${target.name}`);
		},
	}),
	defineOperation<EndpointTarget>({
		id: 'endpoint.delete.confirmed',
		title: 'delete the endpoint, once scaled to zero',
		keys: [],
		scope: ['endpoints', 'endpoint'],
		danger: 'destructive',
		palette: {name: 'delete-endpoint', args: ['endpoint']},
		target: (context, [endpoint]) => endpointTarget(context, endpoint),
		confirm: ({name}) => deleteQuestion(name),
		async run(context, {endpointId, name}) {
			await performFromUi(context, 'endpoint.delete', {endpointId}, undefined, `deleting ${name}`);
		},
	}),
	defineOperation<EndpointTarget & {readonly workersMin: number; readonly workersMax: number}>({
		id: 'endpoint.scale',
		title: 'scale the endpoint: :scale <min> <max> workers',
		keys: [],
		scope: ['endpoints', 'endpoint'],
		danger: 'write',
		palette: {name: 'scale'},
		target(context, [min, max, ...rest]) {
			const workersMin = Number(min);
			const workersMax = Number(max);
			if (rest.length > 0 || !Number.isInteger(workersMin) || !Number.isInteger(workersMax) || workersMin < 0 || workersMax > 100 || workersMin > workersMax) {
				return unavailable('usage: :scale <min> <max>, whole numbers of workers, 0 ≤ min ≤ max ≤ 100');
			}

			const endpoint = endpointTarget(context);
			return 'unavailable' in endpoint ? endpoint : {...endpoint, workersMin, workersMax};
		},
		confirm: ({name, workersMin, workersMax}) => ({prompt: `Scale ${name} to ${workersMin}–${workersMax} workers?`}),
		async run(context, {endpointId, name, workersMin, workersMax}) {
			await performFromUi(context, 'endpoint.scale', {endpointId}, {workersMin, workersMax}, `scaling ${name}`);
		},
	}),
];
