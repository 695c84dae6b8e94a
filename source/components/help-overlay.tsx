import {Box, Text} from 'ink';
import {useEffect} from 'react';
import {helpSections} from '../operations/help.js';
import {paneColumns} from '../rows/visible-rows.js';
import {isWide} from '../view-state/layout.js';
import {currentPlace} from '../view-state/view-state.js';
import {helpLayout, type HelpRow} from './help-layout.js';
import {usePodtop, useServices, useView} from './services.js';

type Props = {readonly width: number; readonly height: number};

const placeTitles = {
	endpoints: 'Endpoints',
	pods: 'Pods',
	gpus: 'GPUs',
	endpoint: 'Endpoint details',
	gpu: 'GPU type',
	pod: 'Pod details',
	job: 'Job',
	worker: 'Worker',
	logs: 'Log',
	alerts: 'Alerts',
	events: 'Events',
	spend: 'Spend',
} as const;

/** The `?` overlay: every key of the view under it, built from the operations themselves (k9s-style), in sections; it scrolls when they do not fit. */
export function HelpOverlay({width, height}: Props) {
	const {colors, engine, view, glyphs} = useServices();
	const place = useView(currentPlace);
	const scroll = useView(state => (state.overlay.type === 'help' ? state.overlay.scroll : 0));
	const wide = useView(state => isWide(state.columns));
	const probing = usePodtop(state => state.probes.configured);
	const columns = place === 'endpoints' || place === 'pods' || place === 'gpus' ? paneColumns(place, wide, probing) : [];
	const sections = helpSections(place, engine?.readOnly ?? false, glyphs, columns);
	// Inside the border and padding, under the title.
	const innerWidth = Math.max(1, width - 4);
	const innerHeight = Math.max(1, height - 3);
	const layout = helpLayout(sections, innerWidth, innerHeight);
	const scrolls = layout.rowCount > innerHeight;
	const shown = scrolls ? Math.max(1, innerHeight - 1) : innerHeight;
	const lastScroll = scrolls ? layout.rowCount - shown : 0;
	useEffect(() => {
		view.dispatch({type: 'help-extent', lastScroll});
	}, [view, lastScroll]);
	const top = Math.min(scroll, lastScroll);
	const tone = (danger: string) => (danger === 'read' ? undefined : danger === 'destructive' ? colors.bad : colors.warn);
	const row = (item: HelpRow, index: number) => {
		switch (item.type) {
			case 'heading': {
				return (
					<Text key={index} bold underline color={colors.accent} wrap='truncate'>
						{item.text}
					</Text>
				);
			}

			case 'line': {
				return (
					<Text key={index} wrap='truncate'>
						<Text bold>{`${item.keys} `.padEnd(layout.keysWidth)}</Text>
						<Text color={tone(item.danger)}>{item.text}</Text>
					</Text>
				);
			}

			case 'more': {
				return (
					<Text key={index} wrap='truncate' color={tone(item.danger)}>
						{`${' '.repeat(layout.keysWidth)}${item.text}`}
					</Text>
				);
			}

			default: {
				return <Text key={index}> </Text>;
			}
		}
	};

	return (
		<Box flexDirection='column' width={width} height={height} borderStyle={glyphs.border} borderColor={colors.accent} paddingX={1}>
			<Text bold color={colors.accent} wrap='truncate'>{`Keys: ${placeTitles[place]} (Esc or ? to close)`}</Text>
			<Box height={shown} gap={2}>
				{layout.columns.map((column, index) => (
					<Box key={index} flexDirection='column' width={layout.columnWidth} flexShrink={0}>
						{column.slice(top, top + shown).map((item, rowIndex) => row(item, top + rowIndex))}
					</Box>
				))}
			</Box>
			{scrolls ? (
				<Text color={colors.muted} wrap='truncate'>
					{`rows ${top + 1}–${top + shown} of ${layout.rowCount} ${glyphs.dot} j/k or PgDn/PgUp scroll · g/G first/last`}
				</Text>
			) : undefined}
		</Box>
	);
}
