import {Box, Text} from 'ink';
import {useEffect, useMemo, useState} from 'react';
import {DetailTitle} from '../components/detail-title.js';
import {useKeyHints} from '../components/key-hints.js';
import {usePodtop, useServices, useView} from '../components/services.js';
import {Table} from '../components/table.js';
import {useNow} from '../components/use-now.js';
import {sanitizeLine} from '../format/sanitize.js';
import {jobColumns, jobRows} from '../rows/job-rows.js';
import {contentWidths} from '../rows/row.js';
import {
	findWorker,
	recordedStatusChanges,
	statusChangeColumns,
	statusChangeRows,
	statusChanges,
	workerFacts,
	type StatusEntry,
} from '../rows/worker-details.js';
import {windowMs} from '../view-state/view-state.js';

type Props = {readonly endpointId: string; readonly workerId: string; readonly width: number; readonly height: number};

/** The most events read for a worker's recorded changes (the newest kept), and how often they are read again while shown. */
const recordedEventsLimit = 5000;
const recordedRefreshMs = 30_000;

type Recorded = {readonly entries: readonly StatusEntry[]; readonly problem?: string};

/** The worker's status changes the history file holds over `spanMs` up to the time cursor (or now); none without history. */
function useRecordedChanges(endpointId: string, workerId: string, spanMs: number, cursor: number | undefined): Recorded {
	const {engine} = useServices();
	const [recorded, setRecorded] = useState<Recorded>({entries: []});
	useEffect(() => {
		let stopped = false;
		let timer: NodeJS.Timeout | undefined;
		const read = async () => {
			const reader = engine?.history.reader();
			if (!reader) {
				return;
			}

			const to = cursor ?? Date.now();
			try {
				const events = await reader.events(to - spanMs, to, recordedEventsLimit);
				if (!stopped) {
					setRecorded({entries: recordedStatusChanges(events, endpointId, workerId)});
				}
			} catch (error) {
				if (!stopped) {
					setRecorded(previous => ({...previous, problem: `history: ${error instanceof Error ? error.message : String(error)}`}));
				}
			}

			if (!stopped && cursor === undefined) {
				timer = setTimeout(() => {
					void read();
				}, recordedRefreshMs);
			}
		};

		void read();
		return () => {
			stopped = true;
			clearTimeout(timer);
		};
	}, [engine, endpointId, workerId, spanMs, cursor]);
	return recorded;
}

/**
One worker of an endpoint, listed now or gone: its record, its status changes (as this podtop saw them,
and before that as the history file recorded them), and the tracked jobs it served. `l` opens its log.
*/
export function WorkerView({endpointId, workerId, width, height}: Props) {
	const {colors, glyphs} = useServices();
	const endpointName = usePodtop(state => state.endpoints.byId[endpointId]?.record.name ?? endpointId);
	const workers = usePodtop(state => state.workers.byEndpoint[endpointId]);
	const error = usePodtop(state => state.workers.errors[endpointId]);
	const unavailable = usePodtop(state => state.workers.unavailable);
	const gpus = usePodtop(state => state.gpus);
	const jobs = usePodtop(state => state.jobs);
	const window = useView(state => state.windows.worker);
	const cursor = useView(state => state.cursor);
	const keys = useKeyHints('worker', ['logs.open', 'back']);
	const now = useNow(workers !== undefined, 5000);
	const recorded = useRecordedChanges(endpointId, workerId, windowMs[window], cursor);
	const found = findWorker(workers, workerId);
	const changes = statusChangeRows(statusChanges(found, recorded.entries), cursor ?? now);
	const served = useMemo(
		() => jobRows([...jobs.byKey.values()].filter(job => job.endpointId === endpointId && job.workerId === workerId)),
		[jobs, endpointId, workerId],
	);
	const facts = found
		? workerFacts(
				found,
				gpus.order.map(id => gpus.byId[id]!.record),
				cursor ?? now,
			)
		: [
				unavailable === undefined
					? error === undefined
						? workers
							? 'podtop has not seen this worker: the service does not list it, and it is not among the gone workers podtop remembers'
							: 'workers: reading…'
						: `workers: ${sanitizeLine(error)}`
					: `workers: ${unavailable}`,
			];
	const body = Math.max(0, height - 1 - facts.length - (recorded.problem === undefined ? 0 : 1));
	// The changes take what they need up to half of what is left; the jobs the rest (each a title and a header at least).
	const changesHeight = Math.max(3, Math.min(2 + Math.max(1, changes.length), Math.floor(body / 2)));
	const jobsHeight = Math.max(3, body - changesHeight);
	return (
		<Box flexDirection='column' width={width} height={height}>
			<DetailTitle text={`Worker ${sanitizeLine(workerId)} of ${sanitizeLine(endpointName)}${found?.gone ? ' (gone)' : ''}  ${keys}`} source='jobApi' />
			{facts.map(line => (
				<Text key={line} wrap='truncate' color={found?.gone ? colors.warn : found ? undefined : colors.muted}>
					{line}
				</Text>
			))}
			{recorded.problem === undefined ? undefined : (
				<Text wrap='truncate' color={colors.warn}>
					{sanitizeLine(recorded.problem)}
				</Text>
			)}
			<Text bold color={colors.accent} wrap='truncate'>
				{`Status changes (${changes.length}) ${glyphs.dot} as this podtop saw them, before that as recorded over ${window}`}
			</Text>
			<Table
				columns={statusChangeColumns}
				rows={changes}
				contentWidths={contentWidths(statusChangeColumns, changes)}
				selected={-1}
				height={changesHeight - 1}
				width={width}
				emptyText='none seen yet'
			/>
			<Text bold color={colors.accent} wrap='truncate'>
				{`Tracked jobs it served (${served.length})`}
			</Text>
			<Table
				columns={jobColumns}
				rows={served}
				contentWidths={contentWidths(jobColumns, served)}
				selected={-1}
				height={jobsHeight - 1}
				width={width}
				emptyText='none of the jobs podtop tracks ran here'
			/>
		</Box>
	);
}
