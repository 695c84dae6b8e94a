import {App} from '../../source/dashboard/app.js';
import type {Services} from '../../source/components/services.js';
import type {LogQuery} from '../../source/model/log-line.js';
import type {LogSubject} from '../../source/model/log-session.js';
import type {View, ViewState} from '../../source/view-state/view-state.js';
import {fakeEngine, fakeLogSession} from './fake-log-session.js';
import {frameMatching, renderWith, testStore, tick} from './ui-fixture.js';

export const podSubject: LogSubject = {kind: 'pod', podId: 'p1'};

/** A frame's text without escape sequences. */
export const plain = (frame: string | undefined) => (frame ?? '').replaceAll(/\u001B\[[\d;?]*[A-Za-z]/g, '');

type Options = {
	readonly columns?: number;
	readonly rows?: number;
	/** Where the dashboard starts (default: a log view of `subject` over the list). */
	readonly views?: readonly View[];
	readonly view?: Partial<ViewState>;
	readonly capacity?: number;
	readonly colors?: Services['colors'];
	/** The engine has no `openLogs` (GraphQL). */
	readonly withoutLogs?: boolean;
};

/**
The dashboard on a log view of `subject` (a pod `trainer`, an endpoint `llm` in the store), its
session the test's own fake: the test pushes lines and states into it and reads the frames.
*/
export async function logView(subject: LogSubject = podSubject, options: Options = {}) {
	const {columns = 100, rows = 30, views, capacity, colors, withoutLogs = false} = options;
	const state = testStore();
	state.writes.setPods([{id: 'p1', name: 'trainer', desiredStatus: 'RUNNING'}], 0);
	state.writes.setEndpoints([{id: 'ep1', name: 'llm', workersMin: 0, workersMax: 3}], 0);
	const fake = fakeLogSession(subject, {capacity});
	const opened: Array<{subject: LogSubject; query: LogQuery}> = [];
	const engine = fakeEngine(
		state.store,
		withoutLogs
			? undefined
			: (asked, query) => {
					opened.push({subject: asked, query});
					return fake.session;
				},
	);
	const rendered = renderWith(state, <App readOnly={false} />, {
		engine,
		colors,
		view: {columns, rows, views: views ?? [{type: 'list'}, {type: 'logs', subject, label: 'pod trainer'}], ...options.view},
	});
	const frame = () => plain(rendered.lastFrame());
	/** One key, read on its own (an Esc read with the next key would be Alt and that key). */
	const press = async (key: string) => {
		const before = rendered.lastFrame();
		rendered.stdin.write(key);
		for (let wait = 0; wait < 20 && rendered.lastFrame() === before; wait++) {
			await tick(10);
		}
	};

	const until = async (pattern: RegExp) => plain(await frameMatching(rendered.lastFrame, pattern));
	/** The rows of log text: under the title and the state line, above the footer. */
	const text = (shown = frame()) => {
		const lines = shown.split('\n');
		const title = lines.findIndex(line => line.startsWith('Log of'));
		return lines.slice(title + 2, -1).filter(line => line.trim() !== '');
	};

	return {...rendered, state, fake, opened, frame, press, until, text};
}

/** `count` lines `line 001`, `line 002`, … from `from`. */
export const numbered = (count: number, from = 1) => Array.from({length: count}, (_, index) => `line ${String(from + index).padStart(3, '0')}`);
