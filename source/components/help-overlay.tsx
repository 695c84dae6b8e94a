import {Box, Text} from 'ink';
import {helpLines} from '../operations/help.js';
import {currentPlace} from '../view-state/view-state.js';
import {useServices, useView} from './services.js';

type Props = {readonly width: number; readonly height: number};

const placeTitles = {
	endpoints: 'Endpoints',
	pods: 'Pods',
	gpus: 'GPUs',
	endpoint: 'Endpoint details',
	gpu: 'GPU type',
	pod: 'Pod details',
	job: 'Job',
} as const;

/** The `?` overlay: every key of the view under it, built from the operations themselves (k9s-style). */
export function HelpOverlay({width, height}: Props) {
	const {colors, engine} = useServices();
	const place = useView(currentPlace);
	const lines = helpLines(place, engine?.readOnly ?? false);
	const keysWidth = Math.min(24, Math.max(...lines.map(line => line.keys.length)) + 2);
	// As many columns as it takes to show every line, side by side.
	const perColumn = Math.max(1, height - 3);
	const columnCount = Math.ceil(lines.length / perColumn);
	const columnWidth = Math.floor((width - 4) / columnCount);
	const columns = Array.from({length: columnCount}, (_, index) => lines.slice(index * perColumn, (index + 1) * perColumn));
	return (
		<Box flexDirection='column' width={width} height={height} borderStyle='round' borderColor={colors.accent} paddingX={1}>
			<Text bold color={colors.accent}>{`Keys: ${placeTitles[place]} (Esc or ? to close)`}</Text>
			<Box>
				{columns.map(column => (
					<Box key={column[0]?.title} flexDirection='column' width={columnWidth}>
						{column.map(line => (
							<Text key={`${line.keys} ${line.title}`} wrap='truncate'>
								<Text bold>{`${line.keys} `.padEnd(keysWidth)}</Text>
								<Text color={line.danger === 'read' ? undefined : line.danger === 'destructive' ? colors.bad : colors.warn}>
									{line.title}
									{line.danger === 'read' ? '' : ` (${line.danger})`}
								</Text>
							</Text>
						))}
					</Box>
				))}
			</Box>
		</Box>
	);
}
