import {Box, Text} from 'ink';
import type {SourceName} from '../store/types.js';
import {DataAge} from './data-age.js';
import {useServices} from './services.js';

type Props = {
	/** What is open and its keys, already sanitised. */
	readonly text: string;
	readonly source: SourceName;
	/** Never shrinks when the view is overfull. */
	readonly fixed?: boolean;
};

/** A details view's first line: what is open (cut to the room left) and, at the right, how fresh its data is. */
export function DetailTitle({text, source, fixed = false}: Props) {
	const {colors} = useServices();
	return (
		<Box height={1} {...(fixed ? {flexShrink: 0} : {})}>
			<Box flexGrow={1} flexShrink={1} overflow='hidden'>
				<Text bold color={colors.accent} wrap='truncate'>
					{text}
				</Text>
			</Box>
			<Box flexShrink={0} marginLeft={1}>
				<DataAge source={source} width={30} />
			</Box>
		</Box>
	);
}
