import {useKeyHints} from '../components/key-hints.js';
import {ListPane} from './list-pane.js';

type Props = {readonly width: number; readonly height: number};

/** Serverless endpoints: workers against min and max, the queue, throughput, failures, trend and drain ETA. */
export function EndpointsPane({width, height}: Props) {
	const hint = useKeyHints('endpoints', ['endpoint.open', 'job.test']);
	return <ListPane pane='endpoints' title='Endpoints' source='jobApi' width={width} height={height} hint={hint} />;
}
