import {Box, Text} from 'ink';
import {usePodtop, useServices} from '../components/services.js';
import {Table} from '../components/table.js';
import {sanitizeLine} from '../format/sanitize.js';
import {contentWidths} from '../rows/row.js';
import {workerColumns, workerRows} from '../rows/worker-rows.js';
import type {Diagnosis} from '../store/diagnosis.js';
import {diagnosisLines} from '../store/endpoint-diagnosis.js';
import {rolloutLine} from '../store/rollout-text.js';

/** Worker rows shown at most in the details (the rest are counted in the title): the charts keep the rest of the pane. */
export const workerRowsShown = 4;

/** The lines the workers part of the details takes: the diagnosis, the rollout, the table's title, header and (at most `rowsShown`) rows. */
export function endpointWorkersLines(diagnosis: Diagnosis, workerCount: number | undefined, rowsShown = workerRowsShown): number {
	return diagnosisLines(diagnosis).length + (workerCount === undefined ? 1 : 3 + Math.max(1, Math.min(rowsShown, workerCount)));
}

type Props = {
	readonly endpointId: string;
	readonly diagnosis: Diagnosis;
	readonly width: number;
	readonly now: number;
	/** Worker rows at most (a short terminal shows fewer). */
	readonly rowsShown?: number;
};

/**
An endpoint's workers in its details: the diagnosis in full with its figures, the rollout, and the workers
(the most troubled first). Over GraphQL, which publishes none, one line says so where they would be.
*/
export function EndpointWorkers({endpointId, diagnosis, width, now, rowsShown = workerRowsShown}: Props) {
	const {colors} = useServices();
	const workers = usePodtop(state => state.workers.byEndpoint[endpointId]);
	const rollout = usePodtop(state => state.workers.rollouts[endpointId]);
	const error = usePodtop(state => state.workers.errors[endpointId]);
	const unavailable = usePodtop(state => state.workers.unavailable);
	const gpus = usePodtop(state => state.gpus);
	const [headline, ...findings] = diagnosisLines(diagnosis, unavailable);
	const troubled = diagnosis.findings.length > 0 || (diagnosis.unservedMs ?? 0) >= 60_000;
	const lines = (
		<>
			<Text wrap='truncate' color={troubled ? colors.bad : undefined} bold={troubled}>
				{headline}
			</Text>
			{findings.map(line => (
				<Text key={line} wrap='truncate'>
					{line}
				</Text>
			))}
		</>
	);
	if (unavailable !== undefined || !workers) {
		const why = unavailable ?? (error === undefined ? 'workers: reading…' : `workers: ${sanitizeLine(error)}`);
		return (
			<Box flexDirection='column' width={width}>
				{lines}
				<Text wrap='truncate' color={colors.muted}>
					{unavailable === undefined ? why : `workers: ${why}`}
				</Text>
			</Box>
		);
	}

	const rows = workerRows(
		workers,
		gpus.order.map(id => gpus.byId[id]!.record),
		now,
	);
	const shown = rows.slice(0, Math.max(1, rowsShown));
	const more = rows.length > shown.length ? `, the ${shown.length} most troubled shown` : '';
	return (
		<Box flexDirection='column' width={width}>
			{lines}
			<Text wrap='truncate'>{rolloutLine(rollout, now)}</Text>
			<Text bold color={colors.accent} wrap='truncate'>
				{`Workers (${rows.length}${more})${error === undefined ? '' : ` · last read failed: ${sanitizeLine(error)}`}`}
			</Text>
			<Table
				columns={workerColumns}
				rows={shown}
				contentWidths={contentWidths(workerColumns, shown)}
				selected={-1}
				height={1 + Math.max(1, shown.length)}
				width={width}
				emptyText='no active worker'
			/>
		</Box>
	);
}
