import {Text} from 'ink';
import {useShallow} from 'zustand/react/shallow';
import type {ListPane} from '../view-state/view-state.js';
import {usePodtop, useServices, useView} from './services.js';

type Props = {readonly width: number};

/** The pane tabs with their counts; Tab moves between them. */
export function Tabs({width}: Props) {
	const {colors, glyphs} = useServices();
	const active = useView(state => state.pane);
	const counts = usePodtop(useShallow(state => ({endpoints: state.endpoints.order.length, pods: state.pods.order.length, gpus: state.gpus.order.length})));
	const tabs: Array<[ListPane, string]> = [
		['endpoints', `Endpoints ${counts.endpoints}`],
		['pods', `Pods ${counts.pods}`],
		['gpus', `GPUs ${counts.gpus}`],
	];
	const hint = ['Tab switch', '/ filter', ': command', '? help'].join(` ${glyphs.dot} `);
	const used = tabs.reduce((sum, [, label]) => sum + label.length + 2, 0);
	const gap = width - used - hint.length;
	return (
		<Text wrap='truncate'>
			{tabs.map(([pane, label]) => (
				<Text key={pane} inverse={pane === active} bold={pane === active} color={pane === active ? colors.accent : undefined}>{` ${label} `}</Text>
			))}
			{gap > 0 ? <Text dimColor>{`${' '.repeat(gap)}${hint}`}</Text> : null}
		</Text>
	);
}
