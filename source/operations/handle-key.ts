import {shownFields} from '../forms/form.js';
import {filterProblem} from '../view-state/filter-matcher.js';
import {confirmationMatches, currentPlace, filterOf} from '../view-state/view-state.js';
import {focusedIsJson, handleFormKey, pasteIntoForm} from './form-keys.js';
import {isUnavailable, type Operation, type OperationContext} from './operation.js';
import {paletteCompletion, parsePalette, tabPalette} from './palette.js';
import {keyLabel, splitKeys} from './key-name.js';
import {operationById, operationForKey} from './registry.js';

const readOnlyOf = (context: OperationContext) => context.engine?.readOnly ?? false;

function say(context: OperationContext, text: string, tone: 'info' | 'bad' = 'bad') {
	context.view.dispatch({type: 'message', text, tone});
}

/**
Runs an operation now, or asks first when it writes. Never throws: a failure is said in the footer.
`key` is the key that asked for it, named when a write is refused.
*/
export function invoke(context: OperationContext, operation: Operation, args: readonly string[] = [], key?: string): void {
	if (operation.danger !== 'read' && readOnlyOf(context)) {
		const why = context.engine?.readOnlyReason;
		const what = key === undefined ? operation.title : `${keyLabel(key)} ${operation.hint ?? operation.footer ?? operation.title}`;
		say(context, `read-only mode${why ? ` (${why})` : ''}: ${what} is off`);
		return;
	}

	if (operation.danger !== 'read' && context.view.getState().cursor !== undefined) {
		say(context, `you cannot act on the past: ${operation.title} works on the account as it is now (. goes back to live)`);
		return;
	}

	const target = operation.target(context, args);
	if (isUnavailable(target)) {
		say(context, target.unavailable);
		return;
	}

	// An action that goes ahead clears the last message (what it says itself comes after).
	if (context.view.getState().message) {
		context.view.dispatch({type: 'message', text: undefined});
	}

	const form = operation.form?.(target, context);
	if (form) {
		const {spec, draftKey} = form;
		const values = context.view.getState().drafts[draftKey] ?? spec.initial;
		const first = shownFields(spec, values)[0];
		context.view.dispatch({
			type: 'open-form',
			operationId: operation.id,
			target,
			formId: spec.id,
			draftKey,
			values,
			focus: 0,
			cursor: first ? (values[first.name] ?? '').length : 0,
		});
		return;
	}

	if (operation.confirm) {
		context.view.dispatch({type: 'confirm', operationId: operation.id, target, ...operation.confirm(target, context)});
		return;
	}

	run(context, operation, target);
}

function run(context: OperationContext, operation: Operation, target: unknown) {
	try {
		const done = operation.run(context, target);
		if (done instanceof Promise) {
			done.catch((error: unknown) => {
				say(context, `${operation.title}: ${error instanceof Error ? error.message : String(error)}`);
			});
		}
	} catch (error) {
		say(context, `${operation.title}: ${error instanceof Error ? error.message : String(error)}`);
	}
}

/** Enter in a bar: apply the filter, run the command, or answer the confirmation. */
function submit(context: OperationContext) {
	const {view} = context;
	const {overlay} = view.getState();
	switch (overlay.type) {
		case 'filter': {
			view.dispatch({type: 'apply-filter'});
			const problem = filterProblem(overlay.input);
			if (problem) {
				const kept = filterOf(view.getState());
				say(context, `not a regex (${problem}): ${kept ? `the filter stays /${kept}` : 'no filter'}`);
			}

			break;
		}

		case 'palette': {
			view.dispatch({type: 'close-overlay'});
			const place = currentPlace(view.getState());
			let parsed = parsePalette(overlay.input, place, readOnlyOf(context));
			if ('error' in parsed && readOnlyOf(context)) {
				// A write typed in read-only mode is refused as one (and says why, and how to write), not as an unknown command.
				const write = parsePalette(overlay.input, place, false);
				parsed = 'error' in write ? parsed : write;
			}

			if ('error' in parsed) {
				say(context, parsed.error);
			} else {
				invoke(context, parsed.operation, parsed.args);
			}

			break;
		}

		case 'confirm': {
			if (!confirmationMatches(overlay)) {
				// It stays open and says so: the keys typed next are for it, never the dashboard's.
				view.dispatch({type: 'reject-confirmation'});
				break;
			}

			view.dispatch({type: 'close-overlay'});
			const operation = operationById(overlay.operationId);
			if (operation) {
				run(context, operation, overlay.target);
			}

			break;
		}
		// No default
	}
}

/** The keys that scroll the `?` overlay when it does not fit. */
const helpScrollKeys: Readonly<Record<string, {readonly by?: number; readonly to?: 'first' | 'last'}>> = {
	j: {by: 1},
	down: {by: 1},
	k: {by: -1},
	up: {by: -1},
	pgdn: {by: 10},
	pgup: {by: -10},
	' ': {by: 10},
	g: {to: 'first'},
	home: {to: 'first'},
	G: {to: 'last'},
	end: {to: 'last'},
};

/**
One key press, by name (see key-name.ts). Overlays take keys first (help closes, bars edit text,
a confirmation waits for its answer); otherwise the operation bound to the key in this place runs.
*/
export function handleKey(context: OperationContext, key: string): void {
	const {view} = context;
	const state = view.getState();
	const {overlay} = state;
	if (key === 'ctrl-c') {
		context.exit();
		return;
	}

	switch (overlay.type) {
		case 'help': {
			if (key === 'esc' || key === '?' || key === 'q') {
				view.dispatch({type: 'close-overlay'});
			}

			const scroll = helpScrollKeys[key];
			if (scroll) {
				view.dispatch({type: 'scroll-help', ...scroll});
			}

			return;
		}

		case 'confirm': {
			if (overlay.typeToConfirm === undefined) {
				const alternative = overlay.alternative?.key === key ? operationById(overlay.alternative.operationId) : undefined;
				if (key === 'y' || key === 'Y') {
					submit(context);
				} else if (alternative) {
					view.dispatch({type: 'close-overlay'});
					run(context, alternative, overlay.target);
				} else {
					view.dispatch({type: 'close-overlay'});
					say(context, 'cancelled: nothing was sent', 'info');
				}

				return;
			}

			break;
		}

		case 'form': {
			handleFormKey(context, overlay, key);
			return;
		}

		case 'none': {
			const place = currentPlace(state);
			// In read-only mode a write's key is not bound, but pressing it says why nothing happens.
			const operation = operationForKey(place, key, readOnlyOf(context)) ?? (readOnlyOf(context) ? operationForKey(place, key, false) : undefined);
			if (operation) {
				invoke(context, operation, [], key);
			}

			return;
		}

		default: {
			break;
		}
	}

	// A bar that takes text: the filter, the palette, or a confirmation by typed name (open until it matches or Esc).
	switch (key) {
		case 'esc': {
			view.dispatch(overlay.type === 'filter' ? {type: 'clear-filter'} : {type: 'close-overlay'});
			if (overlay.type === 'confirm') {
				say(context, 'cancelled: nothing was sent', 'info');
			}

			break;
		}

		case 'enter': {
			submit(context);

			break;
		}

		case 'backspace': {
			view.dispatch({type: 'input', input: [...overlay.input].slice(0, -1).join('')});

			break;
		}

		default: {
			if ((key === 'tab' || key === 'shift-tab') && overlay.type === 'palette') {
				const profiles = () => context.accounts?.names() ?? [];
				const completion = () => paletteCompletion(overlay.input, currentPlace(state), readOnlyOf(context), context.store.getState(), profiles);
				view.dispatch({type: 'input', ...tabPalette(overlay.input, overlay.cycle, completion, key === 'tab' ? 1 : -1)});
			} else if ([...key].length === 1) {
				// Text refused by Enter is replaced by what is typed next (the name, typed again).
				const kept = overlay.type === 'confirm' && overlay.rejected ? '' : overlay.input;
				view.dispatch({type: 'input', input: kept + key});
			}
		}
	}
}

/**
Text that arrived in one read (a paste, or keys typed faster than a frame): each key in turn, in
order. In a form, runs of printable text go into the field in one edit, and JSON keeps its new lines
and tabs.
*/
export function handleText(context: OperationContext, text: string): void {
	let run = '';
	const flush = () => {
		const {overlay} = context.view.getState();
		if (run !== '' && overlay.type === 'form') {
			pasteIntoForm(context, overlay, run);
		} else {
			for (const character of run) {
				handleKey(context, character);
			}
		}

		run = '';
	};

	for (const piece of splitKeys(text)) {
		const {overlay} = context.view.getState();
		const keepAsText = piece.key === 'enter' || piece.key === 'tab';
		if (piece.key === undefined || (keepAsText && overlay.type === 'form' && focusedIsJson(context, overlay))) {
			run += piece.text;
		} else {
			flush();
			handleKey(context, piece.key);
		}
	}

	flush();
}
