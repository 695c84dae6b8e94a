import {Box, Text} from 'ink';
import type {SourceName} from '../store/types.js';
import {useServices} from './services.js';
import {DataAge} from './data-age.js';

type Props = {
	readonly title: string;
	readonly shown: number;
	readonly total: number;
	readonly filter: string;
	readonly source: SourceName;
	readonly width: number;
	readonly hint?: string;
	/** The span of history the pane's trends show (`1h`). */
	readonly window?: string;
};

/** A pane's first line: what it is, how many rows (of how many), the filter in force, the window its trends show, and how fresh it is. */
export function PaneTitle({title, shown, total, filter, source, width, hint, window}: Props) {
	const {colors, glyphs} = useServices();
	const count = shown === total ? `${total}` : `${shown}/${total}`;
	const left = `${title} (${count})${filter ? ` /${filter}` : ''}${window ? ` ${glyphs.dot} ${window}` : ''}${hint ? `  ${hint}` : ''}`;
	return (
		<Box width={width} height={1}>
			<Box flexGrow={1} flexShrink={1} overflow='hidden'>
				<Text bold color={colors.accent} wrap='truncate'>
					{left}
				</Text>
			</Box>
			<Box flexShrink={0} marginLeft={1}>
				<DataAge source={source} width={Math.max(10, Math.floor(width / 2))} />
			</Box>
		</Box>
	);
}
