import {EventEmitter} from 'node:events';
import {render as inkRender} from 'ink';
import {render} from 'ink-testing-library';
import type {ReactElement} from 'react';
import type {Health} from '../../source/api/job-types.js';
import {colorless, ServicesProvider, type Pictures, type Services} from '../../source/components/services.js';
import type {Engine} from '../../source/engine/create-engine.js';
import {unicodeGlyphs, type Glyphs} from '../../source/format/glyphs.js';
import {createRowSelectors} from '../../source/rows/visible-rows.js';
import {createPodtopStore, type PodtopStore, type StoreWrites} from '../../source/store/create-store.js';
import {createViewStore, type ViewStore} from '../../source/view-state/view-store.js';
import {initialViewState, type ViewState} from '../../source/view-state/view-state.js';

export type TestState = {readonly store: PodtopStore; readonly writes: StoreWrites};

export function testStore(): TestState {
	return createPodtopStore({mode: 'live', apiHost: 'api.runpod.ai', keyFingerprint: '••••1a2b'});
}

export function health(overrides: {inQueue?: number; inProgress?: number; completed?: number; failed?: number; running?: number; idle?: number} = {}): Health {
	return {
		jobs: {
			completed: overrides.completed ?? 120,
			failed: overrides.failed ?? 3,
			inProgress: overrides.inProgress ?? 2,
			inQueue: overrides.inQueue ?? 5,
			retried: 1,
		},
		workers: {idle: overrides.idle ?? 1, initializing: 1, ready: 3, running: overrides.running ?? 2, throttled: 0, unhealthy: 0},
	};
}

type RenderOptions = {
	readonly glyphs?: Glyphs;
	readonly engine?: Engine;
	/** The UI state to start from (its terminal size is 120×40 unless given). */
	readonly view?: Partial<ViewState>;
	/** Pictures in the job view (none unless given: an image is its link alone). */
	readonly pictures?: Pictures;
	/** The colours (none unless given). */
	readonly colors?: Services['colors'];
	/** What stands between Ink and the terminal, as the dashboard puts it there (the terminal's own frames are read). */
	readonly terminal?: (stdout: NodeJS.WriteStream) => NodeJS.WriteStream;
};

/** A terminal for Ink that keeps the frames it is sent, and a keyboard (as ink-testing-library's, with a terminal of our own in between). */
function renderThrough(element: ReactElement, terminal: (stdout: NodeJS.WriteStream) => NodeJS.WriteStream) {
	let last: string | undefined;
	// Ink listens with .on() and .off(), as on a stream: an EventEmitter is what it takes.
	// eslint-disable-next-line unicorn/prefer-event-target
	const stdout = Object.assign(new EventEmitter(), {
		columns: 100,
		rows: 40,
		write(frame: string) {
			last = frame;
			return true;
		},
	});
	// eslint-disable-next-line unicorn/prefer-event-target
	const stdin = Object.assign(new EventEmitter(), {
		isTTY: true,
		data: null as string | null,
		write(data: string) {
			stdin.data = data;
			stdin.emit('readable');
			stdin.emit('data', data);
		},
		read() {
			const {data} = stdin;
			stdin.data = null;
			return data;
		},
		setEncoding() {},
		setRawMode() {},
		resume() {},
		pause() {},
		ref() {},
		unref() {},
	});
	const instance = inkRender(element, {
		stdout: terminal(stdout as unknown as NodeJS.WriteStream),
		stdin: stdin as unknown as NodeJS.ReadStream,
		debug: true,
		exitOnCtrlC: false,
		patchConsole: false,
	});
	return {...instance, stdin, lastFrame: () => last} as unknown as ReturnType<typeof render>;
}

/** Renders a part of the dashboard with its services around it, on a store and a view state built by the test. */
export function renderWith(state: Pick<TestState, 'store'>, element: ReactElement, options: RenderOptions = {}): ReturnType<typeof render> & {view: ViewStore} {
	const view = createViewStore({...initialViewState({columns: 120, rows: 40}), ...options.view});
	const services: Services = {
		store: state.store,
		view,
		rows: createRowSelectors(options.glyphs ?? unicodeGlyphs, {pictures: (options.pictures?.level ?? 0) > 0}),
		engine: options.engine,
		glyphs: options.glyphs ?? unicodeGlyphs,
		colors: options.colors ?? colorless,
		pictures: options.pictures,
	};
	const wrapped = <ServicesProvider services={services}>{element}</ServicesProvider>;
	const rendered = options.terminal ? renderThrough(wrapped, options.terminal) : render(wrapped);
	return {
		...rendered,
		// Again with the same services around it (a resize is a rerender at a new width and height).
		rerender(next: ReactElement) {
			rendered.rerender(<ServicesProvider services={services}>{next}</ServicesProvider>);
		},
		view,
	};
}

export const tick = async (ms = 30) => new Promise(resolve => setTimeout(resolve, ms));

/** Waits (up to `timeoutMs`) until the frame matches: renders can lag behind input under load. */
export async function frameMatching(lastFrame: () => string | undefined, pattern: RegExp, timeoutMs = 5000): Promise<string> {
	const deadline = Date.now() + timeoutMs;
	while (Date.now() < deadline) {
		const frame = lastFrame() ?? '';
		if (pattern.test(frame)) {
			return frame;
		}

		await tick(10);
	}

	throw new Error(`frame never matched ${pattern}:\n${lastFrame()}`);
}
