import {Text} from 'ink';
import {sanitizeLine} from '../format/sanitize.js';
import {useServices} from './services.js';

type Props = {readonly prompt: string; readonly value: string; readonly hint: string; readonly width: number};

/** The bottom line while typing a filter or a command. */
export function InputLine({prompt, value, hint, width}: Props) {
	const {colors} = useServices();
	const text = `${prompt}${sanitizeLine(value)}`;
	return (
		<Text wrap='truncate'>
			<Text bold color={colors.accent}>
				{text}
			</Text>
			<Text inverse> </Text>
			<Text dimColor>{`  ${hint}`.slice(0, Math.max(0, width - text.length - 1))}</Text>
		</Text>
	);
}
