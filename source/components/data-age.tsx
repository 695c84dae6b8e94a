import {Text} from 'ink';
import {useShallow} from 'zustand/react/shallow';
import {formatClock} from '../format/clock.js';
import {formatAge} from '../format/duration.js';
import {sanitizeLine} from '../format/sanitize.js';
import {selectKeyRefused} from '../store/key-refused.js';
import type {SourceName} from '../store/types.js';
import {usePodtop, useServices, useView} from './services.js';
import {useNow} from './use-now.js';

type Props = {readonly source: SourceName; readonly width: number};

/**
How fresh a pane's data is: `live` while polls succeed, `loading…` before the first (`⚠ key not
accepted` while the service refuses the key), and when they fail `stale 12s · <error>` (the only thing that ticks, so a healthy idle screen stays still). With
the time cursor in the past: `at 03:12:40`.
*/
export function DataAge({source, width}: Props) {
	const {colors, glyphs} = useServices();
	// What it shows only: a successful poll (a new lastSuccessAt) must not redraw an unchanged screen.
	const connection = usePodtop(
		useShallow(state => {
			const {staleSince, lastError, lastSuccessAt} = state.connection[source];
			const loaded = lastSuccessAt !== undefined;
			return {staleSince, lastError: staleSince !== undefined || !loaded ? lastError : undefined, loaded};
		}),
	);
	const keyRefused = usePodtop(selectKeyRefused);
	const cursor = useView(state => state.cursor);
	const stale = connection.staleSince !== undefined;
	const now = useNow(stale);
	if (cursor !== undefined) {
		return <Text color={colors.accent}>{`at ${formatClock(cursor)}`}</Text>;
	}

	if (!connection.loaded && keyRefused !== undefined) {
		return <Text color={colors.bad}>{`${glyphs.warning} key not accepted (HTTP ${keyRefused})`.slice(0, width)}</Text>;
	}

	if (stale) {
		const text = `${glyphs.warning} stale ${formatAge(connection.staleSince, now)} · ${sanitizeLine(connection.lastError ?? '')}`;
		return (
			<Text color={colors.bad} wrap='truncate'>
				{text.slice(0, width)}
			</Text>
		);
	}

	if (!connection.loaded) {
		return <Text dimColor>{connection.lastError ? sanitizeLine(connection.lastError).slice(0, width) : 'loading…'}</Text>;
	}

	return <Text color={colors.good}>live</Text>;
}
