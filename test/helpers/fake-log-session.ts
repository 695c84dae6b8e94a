import {createStore} from 'zustand/vanilla';
import type {Engine} from '../../source/engine/create-engine.js';
import type {RecordingState} from '../../source/history/history-types.js';
import type {LogLine, LogQuery, LogSource, LogStreamState} from '../../source/model/log-line.js';
import type {LogSession, LogSnapshot, LogSubject, SessionLine, StreamStatus} from '../../source/model/log-session.js';
import type {PodtopStore} from '../../source/store/create-store.js';

/** A line to push: its text, or the fields that differ from a container line of this moment. */
export type PushedLine = string | (Partial<LogLine> & {readonly line: string; readonly origin?: string});

/** An in-memory log session a test fills: lines pushed (the oldest dropped past its capacity), streams' states set, the sources asked for kept. */
export type FakeLogSession = {
	readonly session: LogSession;
	/** Lines arrive (one notification for them all, as a session gives one a frame). */
	readonly push: (...lines: readonly PushedLine[]) => void;
	readonly setStream: (origin: string, state: LogStreamState, extra?: Omit<StreamStatus, 'origin' | 'state'>) => void;
	/** Every source `setSource` was called with, in order. */
	readonly sources: Array<LogSource | undefined>;
	readonly isClosed: () => boolean;
};

/** A fixed moment for the lines' times (the test never reads the clock to assert). */
export const lineTime = Date.UTC(2026, 10, 23, 3, 12, 40);

export function fakeLogSession(
	subject: LogSubject,
	{capacity = 5000, query = {tail: 200}}: {readonly capacity?: number; readonly query?: LogQuery} = {},
): FakeLogSession {
	const listeners = new Set<() => void>();
	const sources: Array<LogSource | undefined> = [];
	const defaultOrigin = subject.kind === 'pod' ? subject.podId : subject.kind === 'worker' ? subject.workerId : 'worker-1';
	let lines: SessionLine[] = [];
	let dropped = 0;
	let seq = 0;
	let streams: StreamStatus[] = [{origin: defaultOrigin, state: 'live'}];
	let {source} = query;
	let closed = false;
	let snapshot: LogSnapshot;
	const publish = () => {
		snapshot = {lines, dropped, capacity, streams, query: {...query, source}};
		for (const listener of listeners) {
			listener();
		}
	};

	publish();
	return {
		session: {
			subject,
			subscribe(listener) {
				listeners.add(listener);
				return () => listeners.delete(listener);
			},
			snapshot: () => snapshot,
			setSource(next) {
				source = next;
				sources.push(next);
				publish();
			},
			close() {
				closed = true;
			},
		},
		push(...pushed) {
			const added = pushed.map((line): SessionLine => {
				const fields = typeof line === 'string' ? {line} : line;
				seq++;
				return {id: String(seq), ts: lineTime, source: 'container', origin: defaultOrigin, seq, ...fields};
			});
			lines = [...lines, ...added];
			if (lines.length > capacity) {
				dropped += lines.length - capacity;
				lines = lines.slice(lines.length - capacity);
			}

			publish();
		},
		setStream(origin, state, extra = {}) {
			streams = [...streams.filter(stream => stream.origin !== origin), {origin, state, ...extra}];
			publish();
		},
		sources,
		isClosed: () => closed,
	};
}

/** An engine with nothing behind it but what the dashboard asks of it to draw, and `openLogs` (absent: an engine on GraphQL). */
export function fakeEngine(store: PodtopStore, openLogs?: Engine['openLogs']): Engine {
	const status = createStore<RecordingState>()(() => ({state: 'off'}));
	return {
		mode: 'live',
		readOnly: false,
		readOnlyReason: undefined,
		store,
		focus() {},
		showing() {},
		refresh() {},
		watchPod: () => () => {},
		watchEndpoint: () => () => {},
		follow: () => () => {},
		track: (endpointId: string, jobId: string) => `${endpointId}/${jobId}`,
		history: {reader: () => undefined, status, ready: new Promise(() => {}), standBy() {}, record() {}, bills: () => undefined},
		simulatedPastMs: undefined,
		openLogs,
	} as unknown as Engine;
}
