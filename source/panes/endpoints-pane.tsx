import {useMemo} from 'react';
import {usePodtop, useServices} from '../ui/app-context.js';
import {endpointColumns, endpointRows} from './endpoint-rows.js';
import {ListPane, type PaneProps} from './list-pane.js';

/** Serverless endpoints: workers against min and max, the queue, throughput, failures, trend and drain ETA. */
export function EndpointsPane(props: PaneProps) {
	const {glyphs} = useServices();
	const endpoints = usePodtop(state => state.endpoints);
	const wide = props.width >= 110;
	const rows = useMemo(() => endpointRows(endpoints.order.map(id => endpoints.byId[id]!), wide, glyphs), [endpoints, wide, glyphs]);
	return <ListPane {...props} title="Endpoints" source="jobApi" columns={wide ? endpointColumns.wide : endpointColumns.compact} rows={rows} hint="⏎ details"/>;
}
