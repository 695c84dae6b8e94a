import {Box, Text} from 'ink';
import type {LogRow, PartStyle} from '../rows/log-layout.js';
import {useServices} from './services.js';

/** The colours workers' lines take in a merged view, as stern gives each pod one: red and gray are the view's own (errors, context). */
const originColors = ['cyan', 'green', 'yellow', 'magenta', 'blue', 'cyanBright', 'greenBright', 'yellowBright', 'magentaBright', 'blueBright'] as const;

/** A worker's colour: the same for it in every frame and every view (a hash of its id). */
export function originColor(origin: string): string {
	let hash = 7;
	for (const character of origin) {
		hash = (hash * 31 + character.codePointAt(0)!) % 2_147_483_647;
	}

	return originColors[hash % originColors.length]!;
}

type Props = {readonly rows: readonly LogRow[]; readonly width: number; readonly height: number; readonly empty: string};

/** The log view's text: each row's parts in their styles, a worker's prefix in its colour, the filter's matches inverse. */
export function LogRows({rows, width, height, empty}: Props) {
	const {colors} = useServices();
	const colorful = colors.accent !== undefined;
	const style = (part: PartStyle, origin: string | undefined) => {
		switch (part) {
			case 'match': {
				return {inverse: true, bold: true};
			}

			case 'origin': {
				return {color: colorful && origin ? originColor(origin) : undefined, bold: true};
			}

			case 'time':
			case 'context':
			case 'gap':
			case 'mark': {
				return {dimColor: true};
			}

			case 'text': {
				return {};
			}
		}
	};

	return (
		<Box flexDirection='column' width={width} height={height}>
			{rows.length === 0 ? (
				<Text dimColor>{empty}</Text>
			) : (
				rows.map((row, index) => (
					// Rows are positional: the same place on screen, whatever line fills it now.

					<Text key={index} wrap='truncate'>
						{row.parts.map((part, partIndex) => (
							<Text key={partIndex} {...style(part.style, row.origin)}>
								{part.text}
							</Text>
						))}
						{row.parts.length === 0 ? ' ' : ''}
					</Text>
				))
			)}
		</Box>
	);
}
