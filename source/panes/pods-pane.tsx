import {useMemo} from 'react';
import {usePodtop, useServices} from '../ui/app-context.js';
import {ListPane, type PaneProps} from './list-pane.js';
import {podColumns, podRows} from './pod-rows.js';

/** Pods: GPU type and count, status, per-GPU utilisation with history, VRAM, CPU, memory, uptime, cost. */
export function PodsPane(props: PaneProps) {
	const {glyphs} = useServices();
	const pods = usePodtop(state => state.pods);
	const wide = props.width >= 110;
	const rows = useMemo(() => podRows(pods.order.map(id => pods.byId[id]!), wide, glyphs), [pods, wide, glyphs]);
	return <ListPane {...props} title="Pods" source="graphql" columns={wide ? podColumns.wide : podColumns.compact} rows={rows}/>;
}
