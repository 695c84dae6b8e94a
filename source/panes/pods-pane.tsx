import {useMemo} from 'react';
import {usePodtop} from '../components/services.js';
import {formatCostTotals, podCostFields, podCostTotals} from '../store/pod-figures.js';
import {ListPane} from './list-pane.js';

type Props = {readonly width: number; readonly height: number};

/**
Pods: GPU type and count, status (those needing attention first), per-GPU utilisation with history,
VRAM, CPU, memory, uptime, what each costs now; the title says what the running and the stopped pods
of the account cost together.
*/
export function PodsPane({width, height}: Props) {
	const pods = usePodtop(state => state.pods);
	const totals = useMemo(
		// Past pods tell their cost without their records made (a time cursor's step: 10,000 pods).
		() => (pods.updatedAt === undefined ? undefined : formatCostTotals(podCostTotals(pods.order.map(id => podCostFields(pods.byId[id]!))))),
		[pods],
	);
	return <ListPane pane='pods' title='Pods' source='graphql' width={width} height={height} hint={totals} />;
}
