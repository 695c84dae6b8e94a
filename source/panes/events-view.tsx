import {Box, Text} from 'ink';
import {useEffect, useMemo, useState} from 'react';
import {useKeyHints} from '../components/key-hints.js';
import {useServices, useView} from '../components/services.js';
import {Table} from '../components/table.js';
import {formatMoment, sameDay} from '../format/moment-text.js';
import {sanitizeLine} from '../format/sanitize.js';
import {eventSubject, eventSummary} from '../headless/events-text.js';
import type {HistoryEvent} from '../history/history-types.js';
import {contentWidths, type Column, type Row} from '../rows/row.js';
import {filterMatcher} from '../view-state/filter-matcher.js';
import {windowMs} from '../view-state/view-state.js';

type Props = {readonly width: number; readonly height: number};

/** The most events the view reads (the newest kept): a screenful is 20–40, a busy day of a fleet a few thousand. */
const eventsViewLimit = 2000;
/** How often the open view reads the timeline again. */
const refreshMs = 5000;

const columns: readonly Column[] = [
	{title: 'TIME', width: 14},
	{title: 'TYPE', width: 14},
	{title: 'SUBJECT', width: 40},
	{title: 'WHAT', width: 80, flex: true},
];

type Timeline = {readonly events: readonly HistoryEvent[]; readonly problem?: string; readonly loading: boolean; readonly readAt: number};

/** The recorded timeline over `spanMs` up to the time cursor (or now), read again every few seconds while shown. */
function useTimeline(spanMs: number, cursor: number | undefined): Timeline {
	const {engine} = useServices();
	const [timeline, setTimeline] = useState<Timeline>(() => ({events: [], loading: true, readAt: Date.now()}));
	useEffect(() => {
		let stopped = false;
		let timer: NodeJS.Timeout | undefined;
		const read = async () => {
			const reader = engine?.history.reader();
			if (reader) {
				const to = cursor ?? Date.now();
				try {
					const events = await reader.events(to - spanMs, to, eventsViewLimit);
					if (!stopped) {
						setTimeline({events: events.toReversed(), loading: false, readAt: to});
					}
				} catch (error) {
					if (!stopped) {
						setTimeline(previous => ({...previous, loading: false, problem: `history: ${error instanceof Error ? error.message : String(error)}`}));
					}
				}
			} else {
				setTimeline({
					events: [],
					loading: false,
					readAt: Date.now(),
					problem: engine ? 'nothing is recorded here (history is off, or another source is in use)' : undefined,
				});
			}

			if (!stopped && cursor === undefined) {
				timer = setTimeout(() => {
					void read();
				}, refreshMs);
			}
		};

		void read();
		return () => {
			stopped = true;
			clearTimeout(timer);
		};
	}, [engine, spanMs, cursor]);
	return timeline;
}

/** `:events`: the recorded events, newest first, as `podtop events` prints them; `/` filters, j/k scroll. */
export function EventsView({width, height}: Props) {
	const {colors, glyphs, view} = useServices();
	const window = useView(state => state.windows.events);
	const cursor = useView(state => state.cursor);
	const filter = useView(state => state.filter.events);
	const index = useView(state => state.events.index);
	const hints = useKeyHints('events', ['filter', 'back']);
	const {events, problem, loading, readAt} = useTimeline(windowMs[window], cursor);
	const rows = useMemo(() => {
		const matches = filterMatcher(filter);
		const oneDay = events.every(event => sameDay(event.at, readAt));
		return events.flatMap((event, position): Row[] => {
			const cells = [formatMoment(event.at, {dayShown: !oneDay}), event.type, sanitizeLine(eventSubject(event)), sanitizeLine(eventSummary(event))];
			const tone = event.type === 'alert.firing' ? 'bad' : event.type === 'alert.resolved' ? 'good' : undefined;
			return matches(cells.slice(1).join('\n')) ? [{key: `${event.at}:${position}`, cells, ...(tone ? {tone} : {})}] : [];
		});
	}, [events, filter, readAt]);
	useEffect(() => {
		view.dispatch({type: 'events-count', count: rows.length});
	}, [view, rows.length]);
	const count = rows.length === events.length ? `${events.length}` : `${rows.length}/${events.length}`;
	const title = `Events (${count})${filter ? ` /${sanitizeLine(filter)}` : ''} ${glyphs.dot} ${window}${cursor === undefined ? '' : ` to ${formatMoment(cursor)}`}, newest first${hints ? `  ${hints}` : ''}`;
	return (
		<Box flexDirection='column' width={width} height={height}>
			<Text bold color={colors.accent} wrap='truncate'>
				{title}
			</Text>
			<Table
				columns={columns}
				rows={rows}
				contentWidths={contentWidths(columns, rows)}
				selected={Math.min(index, Math.max(0, rows.length - 1))}
				height={height - 1}
				width={width}
				emptyText={loading ? 'reading the timeline…' : events.length > 0 ? 'no event matches the filter' : `nothing happened in the last ${window}`}
				emptyWarning={problem}
			/>
		</Box>
	);
}
