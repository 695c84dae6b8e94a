import {shownFields, type Field, type FormSpec} from '../forms/form.js';
import {cursorToLine, cursorToLineEdge, deleteBefore, insertAt} from '../forms/text-edit.js';
import type {FormOverlay} from '../view-state/view-state.js';
import type {OperationContext} from './operation.js';
import {operationById} from './registry.js';

/** The spec of the open form, from the operation that opened it. */
export function formSpecOf(context: OperationContext, overlay: FormOverlay): FormSpec<unknown> | undefined {
	return operationById(overlay.operationId)?.form?.(overlay.target, context)?.spec;
}

/** Whether the focused field is the JSON editor, where a paste keeps its new lines. */
export function focusedIsJson(context: OperationContext, overlay: FormOverlay): boolean {
	const spec = formSpecOf(context, overlay);
	return spec ? shownFields(spec, overlay.values)[overlay.focus]?.kind === 'json' : false;
}

type Edit = {readonly values: FormOverlay['values']; readonly focus: number; readonly cursor: number};

function editValue(overlay: FormOverlay, field: Field, text: string, cursor: number): Edit {
	return {values: {...overlay.values, [field.name]: text}, focus: overlay.focus, cursor};
}

/** Focus on another field (or the Send button past the last), the cursor at the end of its text. */
function moveFocus(overlay: FormOverlay, fields: readonly Field[], by: 1 | -1): Edit {
	const count = fields.length + 1;
	const focus = (overlay.focus + by + count) % count;
	const field = fields[focus];
	return {values: overlay.values, focus, cursor: field ? (overlay.values[field.name] ?? '').length : 0};
}

function cycleChoice(overlay: FormOverlay, field: Field, by: 1 | -1): Edit {
	const choices = field.choices ?? [];
	const index = choices.indexOf(overlay.values[field.name] ?? '');
	const next = choices[(index + by + choices.length) % choices.length] ?? '';
	return editValue(overlay, field, next, 0);
}

/** Sends a form that checks out to its operation's confirmation; otherwise says what to fix and goes there. */
function send(context: OperationContext, overlay: FormOverlay, spec: FormSpec<unknown>, fields: readonly Field[]) {
	const {view} = context;
	const check = spec.check(overlay.values);
	const operation = operationById(overlay.operationId);
	if (check.result === undefined || !operation?.confirm) {
		const index = fields.findIndex(field => check.problems[field.name] !== undefined);
		const field = fields[index];
		if (field) {
			view.dispatch({type: 'edit-form', values: overlay.values, focus: index, cursor: (overlay.values[field.name] ?? '').length});
			view.dispatch({type: 'message', text: `not sent: ${field.label} ${check.problems[field.name] ?? ''}`, tone: 'bad'});
		}

		return;
	}

	const target = {...(overlay.target as Record<string, unknown>), form: check.result};
	view.dispatch({type: 'confirm', operationId: operation.id, target, ...operation.confirm(target, context)});
}

/**
A key in an open form. Tab and Shift-Tab (or ↓ and ↑) move between fields, ←/→ move the cursor or
change a choice, Space toggles, Enter starts a new line in JSON and moves on elsewhere, Ctrl-S (or
Enter on Send) sends to the confirmation, Esc closes it and keeps what was typed.
*/
export function handleFormKey(context: OperationContext, overlay: FormOverlay, key: string): void {
	const {view} = context;
	const spec = formSpecOf(context, overlay);
	if (!spec || key === 'esc') {
		view.dispatch({type: 'close-overlay'});
		view.dispatch({type: 'message', text: 'cancelled: nothing was sent (n opens the form again as you left it)', tone: 'info'});
		return;
	}

	const fields = shownFields(spec, overlay.values);
	const field = fields[overlay.focus];
	const apply = (edit: Edit | undefined) => {
		if (edit) {
			view.dispatch({type: 'edit-form', ...edit});
		}
	};

	if (key === 'ctrl-s' || (field === undefined && (key === 'enter' || key === ' '))) {
		send(context, overlay, spec, fields);
		return;
	}

	const text = field ? (overlay.values[field.name] ?? '') : '';
	const editable = field?.kind === 'text' || field?.kind === 'json';
	switch (key) {
		case 'tab': {
			apply(moveFocus(overlay, fields, 1));
			return;
		}

		case 'shift-tab': {
			apply(moveFocus(overlay, fields, -1));
			return;
		}

		case 'up':
		case 'down': {
			const by = key === 'up' ? -1 : 1;
			const line = field?.kind === 'json' ? cursorToLine(text, overlay.cursor, by) : undefined;
			apply(line === undefined ? moveFocus(overlay, fields, by) : {values: overlay.values, focus: overlay.focus, cursor: line});
			return;
		}

		case 'left':
		case 'right': {
			const by = key === 'left' ? -1 : 1;
			if (field && !editable) {
				apply(cycleChoice(overlay, field, by));
			} else if (field) {
				apply({values: overlay.values, focus: overlay.focus, cursor: Math.max(0, Math.min(text.length, overlay.cursor + by))});
			}

			return;
		}

		case 'home':
		case 'end': {
			apply(
				field?.kind === 'json'
					? {values: overlay.values, focus: overlay.focus, cursor: cursorToLineEdge(text, overlay.cursor, key)}
					: {values: overlay.values, focus: overlay.focus, cursor: key === 'home' ? 0 : text.length},
			);
			return;
		}

		case 'enter': {
			apply(field?.kind === 'json' ? insertInto(overlay, field, '\n') : moveFocus(overlay, fields, 1));
			return;
		}

		case 'backspace': {
			if (field && editable) {
				const edited = deleteBefore({text, cursor: overlay.cursor});
				apply(editValue(overlay, field, edited.text, edited.cursor));
			}

			return;
		}

		default: {
			if (field && !editable && key === ' ') {
				apply(cycleChoice(overlay, field, 1));
			} else if (field && editable && [...key].length === 1) {
				apply(insertInto(overlay, field, key));
			}
		}
	}
}

function insertInto(overlay: FormOverlay, field: Field, inserted: string): Edit {
	const edited = insertAt({text: overlay.values[field.name] ?? '', cursor: overlay.cursor}, inserted);
	return editValue(overlay, field, edited.text, edited.cursor);
}

/** A paste into the focused field, in one edit: new lines stay in JSON, and end a one-line field's text. */
export function pasteIntoForm(context: OperationContext, overlay: FormOverlay, text: string): void {
	const spec = formSpecOf(context, overlay);
	const field = spec ? shownFields(spec, overlay.values)[overlay.focus] : undefined;
	if (!field || (field.kind !== 'text' && field.kind !== 'json')) {
		return;
	}

	const normalised = text.replaceAll('\r\n', '\n').replaceAll('\r', '\n');
	const inserted = field.kind === 'json' ? normalised : normalised.replaceAll('\n', ' ');
	context.view.dispatch({type: 'edit-form', ...insertInto(overlay, field, inserted)});
}
