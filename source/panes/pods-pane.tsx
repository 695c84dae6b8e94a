import {ListPane} from './list-pane.js';

type Props = {readonly width: number; readonly height: number};

/** Pods: GPU type and count, status (those needing attention first), per-GPU utilisation with history, VRAM, CPU, memory, uptime, cost. */
export function PodsPane({width, height}: Props) {
	return <ListPane pane='pods' title='Pods' source='graphql' width={width} height={height} />;
}
