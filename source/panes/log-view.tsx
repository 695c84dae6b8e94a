import {Box, Text} from 'ink';
import {useMemo, useSyncExternalStore} from 'react';
import {useShallow} from 'zustand/react/shallow';
import {useKeyHints} from '../components/key-hints.js';
import {LogRows} from '../components/log-rows.js';
import {useServices, useView} from '../components/services.js';
import {useNow} from '../components/use-now.js';
import {bufferText, grouped, sessionStateText} from '../rows/log-state-text.js';
import {sanitizeLine} from '../format/sanitize.js';
import type {LogSession, LogSnapshot, LogSubject} from '../model/log-session.js';
import {subjectKey, type LogSlot} from '../operations/log-slot.js';
import {shortOrigin} from '../rows/log-layout.js';
import {logLayout, logSelection, logTextRows} from '../rows/log-view-model.js';
import {logWindow} from '../rows/log-window.js';

type Props = {
	readonly subject: LogSubject;
	readonly label: string;
	readonly slot: LogSlot;
	readonly width: number;
	readonly height: number;
};

/** The session's snapshot, re-read when it says it changed (at most once a frame's worth of lines), the same object in between. */
function useSnapshot(session: LogSession | undefined): LogSnapshot | undefined {
	const source = useMemo(() => {
		let snapshot = session?.snapshot();
		return {
			subscribe: (listener: () => void) =>
				session?.subscribe(() => {
					snapshot = session.snapshot();
					listener();
				}) ?? (() => {}),
			get: () => snapshot,
		};
	}, [session]);
	return useSyncExternalStore(source.subscribe, source.get);
}

/**
A pod's, a worker's or an endpoint's workers' log, following its tail. Scrolling up pauses: the
lines on screen stay (anchored on their seq, as lines arrive and old ones drop), the title counts
those below. `/` filters as it is typed, with context around matches; a merged view prefixes each
line with its worker in the worker's colour. The state line says each stream's state and the buffer's.
*/
export function LogView({subject, label, slot, width, height}: Props) {
	const {colors, glyphs} = useServices();
	const held = useSyncExternalStore(slot.subscribe, slot.getState);
	const current = 'key' in held && held.key === subjectKey(subject) ? held : undefined;
	const session = current?.status === 'open' ? current.session : undefined;
	const snapshot = useSnapshot(session);
	const settings = useView(useShallow(state => state.logs));
	const reconnecting = snapshot?.streams.some(stream => stream.state === 'reconnecting') ?? false;
	const now = useNow(reconnecting);
	const merged = subject.kind === 'endpoint';
	const textRows = logTextRows(height);
	const {end, filter, context, wrap, timestamps, json} = settings;
	const query = snapshot?.query;
	const selection = useMemo(() => (snapshot ? logSelection(snapshot, {filter, context}) : undefined), [snapshot, filter, context]);
	const layout = useMemo(
		() => (query ? logLayout({filter, wrap, timestamps, json}, query, subject, width, now) : undefined),
		[filter, wrap, timestamps, json, query, subject, width, now],
	);
	const shown = selection && layout ? logWindow(selection.shown, end, textRows, layout) : undefined;
	const back = useKeyHints('logs', ['logs.back', 'logs.source', 'logs.wrap', 'logs.timestamps', 'logs.json', 'logs.save']);
	const title = `Log of ${sanitizeLine(label)}  ${back}`;
	const paused = end !== undefined;
	const below = shown?.below ?? 0;
	const follow = paused ? `${glyphs.down} ${grouped(below)} unseen ${below === 1 ? 'line' : 'lines'} · G to follow` : 'following';
	const state = snapshot
		? sessionStateText(snapshot.streams, merged, now, shortOrigin)
		: current?.status === 'unavailable'
			? {text: sanitizeLine(current.reason), tone: 'bad' as const}
			: {text: 'opening the log…', tone: 'muted' as const};
	const facts = snapshot
		? [
				`source ${snapshot.query.source ?? 'both'}`,
				bufferText(snapshot),
				filter ? `/${sanitizeLine(filter)} ${grouped(selection?.matches ?? 0)} ${selection?.matches === 1 ? 'match' : 'matches'}` : undefined,
				filter && context > 0 ? `context ${context}` : undefined,
				wrap ? undefined : 'cut',
				json ? 'json' : undefined,
			]
				.filter(Boolean)
				.join(' · ')
		: '';
	const tone = {good: colors.good, muted: colors.muted, warn: colors.warn, bad: colors.bad}[state.tone];
	const empty = snapshot ? (filter ? 'no line matches the filter' : 'waiting for lines…') : '';
	return (
		<Box flexDirection='column' width={width} height={height}>
			<Box height={1}>
				<Box flexGrow={1}>
					<Text bold color={colors.accent} wrap='truncate'>
						{title}
					</Text>
				</Box>
				<Box flexShrink={0} marginLeft={1}>
					<Text color={paused ? colors.warn : colors.muted}>{follow}</Text>
				</Box>
			</Box>
			<Text wrap='truncate'>
				<Text color={tone}>{state.text}</Text>
				{facts ? ` · ${facts}` : ''}
			</Text>
			<LogRows rows={shown?.rows ?? []} width={width} height={textRows} empty={empty} />
		</Box>
	);
}
