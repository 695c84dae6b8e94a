import {Box, Text} from 'ink';
import {useKeyHints} from '../components/key-hints.js';
import {usePodtop, useServices, useView} from '../components/services.js';
import {Table} from '../components/table.js';
import {sanitizeLine} from '../format/sanitize.js';
import {contentWidths} from '../rows/row.js';
import {goneWorkerColumns, goneWorkerRows, workerColumns, workerRows} from '../rows/worker-rows.js';
import {selectedIndex} from '../view-state/view-reducer.js';
import type {Diagnosis} from '../store/diagnosis.js';
import {diagnosisLines} from '../store/endpoint-diagnosis.js';
import {rolloutLine} from '../store/rollout-text.js';

/** Worker rows shown at most in the details (the rest are counted in the title, and reached with `w` then j/k): the charts keep the rest of the pane. */
export const workerRowsShown = 4;

/** Gone worker rows shown at most (the newest; j/k on the workers reach the rest). */
export const goneRowsShown = 2;

/**
The lines the workers part of the details takes: the diagnosis, the rollout, the table's title, header and (at most `rowsShown`) rows,
and with gone workers their title, header and (at most `goneRowsShown`) rows.
*/
export function endpointWorkersLines(diagnosis: Diagnosis, workerCount: number | undefined, rowsShown = workerRowsShown, goneCount = 0): number {
	const gone = goneCount > 0 ? 2 + Math.min(goneRowsShown, goneCount) : 0;
	return diagnosisLines(diagnosis).length + (workerCount === undefined ? 1 : 3 + Math.max(1, Math.min(rowsShown, workerCount)) + gone);
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
An endpoint's workers in its details: the diagnosis in full with its figures, the rollout, the workers
(the most troubled first), and those podtop saw that the service no longer lists (the newest first). `w`
moves j/k and Enter onto them (Enter opens a worker's own view). Over GraphQL, which publishes none, one
line says so where they would be.
*/
export function EndpointWorkers({endpointId, diagnosis, width, now, rowsShown = workerRowsShown}: Props) {
	const {colors} = useServices();
	const workers = usePodtop(state => state.workers.byEndpoint[endpointId]);
	const rollout = usePodtop(state => state.workers.rollouts[endpointId]);
	const error = usePodtop(state => state.workers.errors[endpointId]);
	const unavailable = usePodtop(state => state.workers.unavailable);
	const gpus = usePodtop(state => state.gpus);
	const focused = useView(state => state.endpointFocus === 'workers');
	const selection = useView(state => state.selected.workers);
	const focusKeys = useKeyHints('endpoint', [{ids: ['workers.focus'], word: focused ? 'jobs' : 'select'}, ...(focused ? ['job.open' as const] : [])]);
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
	const gone = goneWorkerRows(workers, now);
	const keys = [...rows.map(row => row.key), ...gone.map(row => row.key)];
	const selected = focused ? selectedIndex(selection, keys) : -1;
	const listedShown = Math.min(Math.max(1, rowsShown), Math.max(1, rows.length));
	const more = rows.length > listedShown ? `, the ${listedShown} most troubled shown` : '';
	return (
		<Box flexDirection='column' width={width}>
			{lines}
			<Text wrap='truncate'>{rolloutLine(rollout, now)}</Text>
			<Text bold color={colors.accent} wrap='truncate'>
				{`Workers (${rows.length}${more})${error === undefined ? '' : ` · last read failed: ${sanitizeLine(error)}`}  ${focusKeys}`}
			</Text>
			<Table
				columns={workerColumns}
				rows={rows}
				contentWidths={contentWidths(workerColumns, rows)}
				selected={selected < rows.length ? selected : -1}
				height={1 + listedShown}
				width={width}
				emptyText='no active worker'
			/>
			{gone.length === 0 ? undefined : (
				<>
					<Text bold color={colors.muted} wrap='truncate'>
						{`Gone workers (${gone.length}, the newest first: the service no longer lists them)`}
					</Text>
					<Table
						columns={goneWorkerColumns}
						rows={gone}
						contentWidths={contentWidths(goneWorkerColumns, gone)}
						selected={selected >= rows.length ? selected - rows.length : -1}
						height={1 + Math.min(goneRowsShown, gone.length)}
						width={width}
					/>
				</>
			)}
		</Box>
	);
}
