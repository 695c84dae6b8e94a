import {useApp, useInput, type Key} from 'ink';
import type {Dispatch, MutableRefObject} from 'react';
import {describeError} from '../api/errors.js';
import {useServices} from './app-context.js';
import {completeCommand, parseCommand} from './commands.js';
import {currentView, listPanes, type UiAction, type UiState} from './ui-state.js';

type Options = {
	/** The latest UI state, even between renders: keys can arrive faster than React renders. */
	readonly current: () => UiState;
	readonly dispatch: Dispatch<UiAction>;
	readonly rowKeys: MutableRefObject<readonly string[]>;
	readonly pageSize: number;
	readonly setScrollBack: (update: (back: number) => number) => void;
	readonly sortColumns: number;
};

const isPrintable = (input: string, key: Key) => input.length > 0 && !key.ctrl && !key.meta && !key.return && !key.escape && !key.tab && !key.backspace && !key.delete;

/** Every key the app understands. Each one changes local state at once: none waits for a poll. */
export function useKeys({current, dispatch, rowKeys, pageSize, setScrollBack, sortColumns}: Options): void {
	const {exit} = useApp();
	const {store, api, refresh} = useServices();
	const {actions} = store.getState();

	const openJob = (endpointId: string, jobId: string) => {
		const key = actions.trackJob(endpointId, jobId, {follow: true});
		setScrollBack(() => 0);
		dispatch({type: 'open', view: {type: 'job', jobKey: key}});
	};

	const runCommand = (input: string) => {
		const command = parseCommand(input);
		dispatch({type: 'overlay', overlay: 'none'});
		switch (command.type) {
			case 'pane': {
				dispatch({type: 'switch-pane', pane: command.pane});
				break;
			}

			case 'job': {
				openJob(command.endpointId, command.jobId);
				break;
			}

			case 'help': {
				dispatch({type: 'overlay', overlay: 'help'});
				break;
			}

			case 'refresh': {
				refresh();
				dispatch({type: 'message', message: 'refreshing…'});
				break;
			}

			case 'quit': {
				exit();
				break;
			}

			case 'error': {
				dispatch({type: 'message', message: command.message});
				break;
			}
		}
	};

	/** Enter in the filter bar or the palette. */
	const submit = (overlay: 'filter' | 'palette', text: string) => {
		if (overlay === 'filter') {
			dispatch({type: 'apply-filter'});
		} else {
			runCommand(text);
		}
	};

	/** Text typed into a bar, possibly several keys in one read and ending with Enter. */
	const typeInto = (overlay: 'filter' | 'palette', before: string, chunk: string) => {
		const [text = '', ...afterEnter] = chunk.split(/[\r\n]/);
		dispatch({type: 'input', input: before + text});
		if (afterEnter.length > 0) {
			submit(overlay, before + text);
		}
	};

	const sendTestJob = (endpointId: string) => {
		if (!api) {
			return;
		}

		dispatch({type: 'message', message: `sending a test job to ${endpointId}…`});
		api.run(endpointId, {input: {prompt: 'Hello from podtop: a short test job.', max_tokens: 64}}).then(({id}) => {
			dispatch({type: 'message', message: `test job ${id} queued`});
			openJob(endpointId, id);
		}, (error: unknown) => {
			dispatch({type: 'message', message: `test job not sent: ${describeError(error)}`});
		});
	};

	useInput((input, key) => {
		const ui = current();
		const view = currentView(ui);
		if (key.ctrl && input === 'c') {
			exit();
			return;
		}

		if (ui.overlay === 'help') {
			if (key.escape || input === '?' || input === 'q') {
				dispatch({type: 'overlay', overlay: 'none'});
			}

			return;
		}

		if (ui.overlay === 'filter' || ui.overlay === 'palette') {
			if (input.length > 1 && isPrintable(input, key)) {
				// A paste, or fast typing that arrived in one read.
				typeInto(ui.overlay, ui.input, input);
				return;
			}

			if (key.escape) {
				dispatch(ui.overlay === 'filter' ? {type: 'clear-filter'} : {type: 'overlay', overlay: 'none'});
			} else if (key.return) {
				submit(ui.overlay, ui.input);
			} else if (key.backspace || key.delete) {
				dispatch({type: 'input', input: ui.input.slice(0, -1)});
			} else if (key.tab && ui.overlay === 'palette') {
				const state = store.getState();
				dispatch({type: 'input', input: completeCommand(ui.input, {
					endpointIds: state.endpoints.order,
					jobIds: endpointId => [...state.jobs.byKey.values()].filter(job => job.endpointId === endpointId).map(job => job.id),
				})});
			} else if (isPrintable(input, key)) {
				dispatch({type: 'input', input: ui.input + input});
			}

			return;
		}

		// Keys typed faster than one read: `/text` or `:text` opens the bar with the text, `jjj` moves three.
		if (input.length > 1 && isPrintable(input, key)) {
			if ((input.startsWith('/') && view.type === 'list') || input.startsWith(':')) {
				const overlay = input.startsWith('/') ? 'filter' : 'palette';
				dispatch({type: 'overlay', overlay});
				typeInto(overlay, '', input.slice(1));
				return;
			}

			if (/^[jk]+$/.test(input) && view.type !== 'job') {
				const by = [...input].reduce((sum, character) => sum + (character === 'j' ? 1 : -1), 0);
				dispatch({type: 'move', by, count: rowKeys.current.length});
				return;
			}

			input = input[0]!;
		}

		if (input === 'q') {
			exit();
			return;
		}

		if (input === '?') {
			dispatch({type: 'overlay', overlay: 'help'});
			return;
		}

		if (input === ':') {
			dispatch({type: 'overlay', overlay: 'palette'});
			return;
		}

		if (input === 'r') {
			refresh();
			dispatch({type: 'message', message: 'refreshing…'});
			return;
		}

		if (view.type === 'job') {
			if (key.escape) {
				dispatch({type: 'back'});
			} else if (input === 'k' || key.upArrow) {
				setScrollBack(back => back + 1);
			} else if (input === 'j' || key.downArrow) {
				setScrollBack(back => Math.max(0, back - 1));
			} else if (key.pageUp) {
				setScrollBack(back => back + pageSize);
			} else if (key.pageDown) {
				setScrollBack(back => Math.max(0, back - pageSize));
			} else if (input === 'g') {
				setScrollBack(() => Number.MAX_SAFE_INTEGER);
			} else if (input === 'G') {
				setScrollBack(() => 0);
			}

			return;
		}

		const count = rowKeys.current.length;
		if (input === 'j' || key.downArrow) {
			dispatch({type: 'move', by: 1, count});
		} else if (input === 'k' || key.upArrow) {
			dispatch({type: 'move', by: -1, count});
		} else if (key.pageDown) {
			dispatch({type: 'move', by: pageSize, count});
		} else if (key.pageUp) {
			dispatch({type: 'move', by: -pageSize, count});
		} else if (input === 'g' || key.home) {
			dispatch({type: 'move-to', index: 0, count});
		} else if (input === 'G' || key.end) {
			dispatch({type: 'move-to', index: count - 1, count});
		} else if (key.escape) {
			if (view.type === 'list' && ui.filter[ui.pane]) {
				dispatch({type: 'clear-filter'});
			} else {
				dispatch({type: 'back'});
			}
		} else if (view.type === 'endpoint') {
			if (key.return) {
				const jobKey = rowKeys.current[ui.detailSelected];
				if (jobKey) {
					setScrollBack(() => 0);
					dispatch({type: 'open', view: {type: 'job', jobKey}});
				}
			} else if (input === 't') {
				sendTestJob(view.endpointId);
			}
		} else if (key.tab) {
			dispatch({type: 'next-pane', step: key.shift ? -1 : 1});
		} else if (input === '1' || input === '2' || input === '3') {
			dispatch({type: 'switch-pane', pane: listPanes[Number(input) - 1]!});
		} else if (input === '/') {
			dispatch({type: 'overlay', overlay: 'filter'});
		} else if (input === 's') {
			dispatch({type: 'sort-next', columns: sortColumns});
		} else if (input === 'S') {
			dispatch({type: 'sort-reverse'});
		} else if (key.return) {
			const selectedKey = rowKeys.current[ui.selected[ui.pane]];
			if (ui.pane === 'endpoints' && selectedKey) {
				dispatch({type: 'open', view: {type: 'endpoint', endpointId: selectedKey}});
			}
		}
	});
}
