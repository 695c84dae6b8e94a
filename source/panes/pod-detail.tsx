import {Box, Text} from 'ink';
import type {PodRecord} from '../model/pod.js';
import {DetailTitle} from '../components/detail-title.js';
import {useKeyHints} from '../components/key-hints.js';
import {maxGpuCharts, PodCharts, podChartLayout} from '../components/pod-charts/index.js';
import {useRecorded} from '../components/use-series/index.js';
import {usePodtop, useServices, useView} from '../components/services.js';
import {formatDuration} from '../format/duration.js';
import {keyNotAccepted, retryInDashboard} from '../format/key-refused.js';
import {sanitizeLine} from '../format/sanitize.js';
import {textTable} from '../format/text-table.js';
import {podStatus} from '../rows/pod-rows.js';
import {selectKeyRefused} from '../store/key-refused.js';
import {describeCost} from '../store/pod-figures.js';

type Props = {readonly podId: string; readonly showEnv: boolean; readonly width: number; readonly height: number};

const label = (text: string) => text.padEnd(10);

/** `KEY=value` as the name alone, or whole when asked: values often hold secrets. */
function envLine(entry: string, showValues: boolean): string {
	const equals = entry.indexOf('=');
	const name = equals === -1 ? entry : entry.slice(0, equals);
	return showValues ? sanitizeLine(entry) : `${sanitizeLine(name)}=••••`;
}

type Port = {readonly ip: string; readonly public: string; readonly port: string; readonly type: string};

/** The ports as one line, when there is no room for their table. */
const portsLine = (ports: readonly Port[], dot: string) =>
	ports.map(port => `${port.port} ${port.type}${port.public === 'yes' ? ` (${port.ip})` : ''}`).join(` ${dot} `);

/** The ports as a table under the env line: a header and one line each. */
const portsTable = (ports: readonly Port[]) =>
	textTable(
		['PORT', 'TYPE', 'PUBLIC', 'IP'],
		ports.map(port => [port.port, port.type, port.public, port.ip]),
	).split('\n');

/** Where the pod runs and on what terms: machine, data center, cloud, spot or on demand, CUDA (what the API says of it). */
function machineLine(record: PodRecord): string {
	const cloud = record.cloudType ? `${record.cloudType.toLowerCase()} cloud` : undefined;
	return [
		`${record.machineId ?? '–'} in ${record.dataCenterId ?? record.machine?.location ?? '–'}`,
		cloud,
		record.podType === 'INTERRUPTABLE' ? 'spot' : 'on demand',
		record.cudaVersion ? `CUDA ${record.cudaVersion}` : undefined,
	]
		.filter(Boolean)
		.map(part => sanitizeLine(part!))
		.join(' · ');
}

/**
One pod: image, GPUs, vCPU, memory, disks, machine, uptime, what it costs now and its running price;
charts of each GPU's utilisation and memory and the container's CPU and memory over the view's
window; its environment by name (values on `v`); its ports as a small table (a line when room is short).
*/
export function PodDetail({podId, showEnv, width, height}: Props) {
	const {colors, glyphs} = useServices();
	const window = useView(state => state.windows.pod);
	const recorded = useRecorded();
	const detail = usePodtop(state => (state.podDetail?.podId === podId ? state.podDetail : undefined));
	const listed = usePodtop(state => state.pods.byId[podId]?.record);
	const record = detail?.record ?? listed;
	const keyRefused = usePodtop(selectKeyRefused);
	const keys = useKeyHints('pod', ['back', 'pod.env', 'pod.stop', 'pod.resume']);
	const windowKeys = useKeyHints('pod', [{ids: ['window.shorter', 'window.longer'], word: 'window'}]);
	if (detail?.record === null) {
		return <Text color={colors.warn}>{`Pod ${sanitizeLine(podId)} is gone (terminated). ${keys}`}</Text>;
	}

	if (!record) {
		return keyRefused === undefined ? (
			<Text color={colors.muted}>{`Pod ${sanitizeLine(podId)}: loading its details…`}</Text>
		) : (
			<Text color={colors.bad}>{`Pod ${sanitizeLine(podId)}: ${keyNotAccepted(keyRefused, retryInDashboard)}`}</Text>
		);
	}

	const status = podStatus(record);
	const runtime = record.runtime ?? undefined;
	const gpus = record.gpuCount === 0 ? 'none (a CPU pod)' : `${record.gpuCount ?? '?'}× ${sanitizeLine(record.machine?.gpuDisplayName ?? '?')}`;
	const facts: Array<[string, string]> = [
		['image', sanitizeLine(record.imageName ?? '–')],
		['GPUs', `${gpus} · ${record.vcpuCount ?? '–'} vCPU · ${record.memoryInGb ?? '–'} GB memory`],
		[
			'disks',
			`container ${record.containerDiskInGb ?? '–'} GB (wiped on stop) · volume ${record.volumeInGb ?? '–'} GB at ${sanitizeLine(record.volumeMountPath ?? '–')} (kept)`,
		],
		['machine', machineLine(record)],
		['uptime', runtime ? formatDuration(runtime.uptimeInSeconds) : '–'],
		['cost', describeCost(record)],
	];
	const ports = (runtime?.ports ?? []).flatMap(port =>
		port
			? [
					{
						ip: sanitizeLine(port.ip ?? '–'),
						public: port.isIpPublic ? 'yes' : 'no',
						port: `${port.privatePort ?? '?'} ${glyphs.arrow} ${port.publicPort ?? '?'}`,
						type: sanitizeLine(port.type ?? '?'),
					},
				]
			: [],
	);
	const env = (record.env ?? []).flatMap(entry => (entry ? [envLine(entry, showEnv)] : []));
	// Charts for each GPU the pod has (or had: a stopped pod's history still shows), and the container.
	const gpuCount = Math.min(maxGpuCharts, Math.max(record.gpuCount ?? 0, runtime?.gpus?.length ?? 0));
	const fixedLines = 1 + facts.length + 1;
	const table = portsTable(ports);
	const leastCharts = podChartLayout(gpuCount, width, Number.POSITIVE_INFINITY);
	const leastLines = Math.ceil(leastCharts.shown / leastCharts.perRow) * 2 + 1;
	const portsAsTable = ports.length > 0 && height - fixedLines - table.length >= leastLines;
	const chartsHeight = Math.max(0, height - fixedLines - (portsAsTable ? table.length : 1));
	return (
		// Each line keeps its height (none shrinks to make room): what does not fit is cut at the bottom, never drawn over.
		<Box flexDirection='column' width={width} height={height} overflow='hidden'>
			<DetailTitle
				fixed
				text={`${sanitizeLine(record.name || record.id)} (${sanitizeLine(record.id)}) ${status.label}  ${keys} ${glyphs.dot} ${window}${recorded ? '' : ' (history off)'} ${windowKeys}`}
				source='graphql'
			/>
			{facts.map(([name, text]) => (
				<Box key={name} height={1} flexShrink={0}>
					<Text wrap='truncate'>
						{label(name)}
						{text}
					</Text>
				</Box>
			))}
			<Box height={chartsHeight} flexShrink={0} overflow='hidden'>
				<PodCharts podId={podId} gpus={gpuCount} width={width} height={chartsHeight} />
			</Box>
			<Box height={1} flexShrink={0}>
				<Text wrap='truncate'>
					{label('env')}
					{detail ? (env.length === 0 ? 'none' : env.join('  ')) : 'loading…'}
					<Text dimColor>{env.length > 0 && !showEnv ? '  (v shows the values)' : ''}</Text>
				</Text>
			</Box>
			{ports.length === 0 ? (
				<Text wrap='truncate'>
					{label('ports')}
					{detail ? (runtime ? 'none exposed' : 'none while the pod is not running') : 'loading…'}
				</Text>
			) : portsAsTable ? (
				table.map((line, index) => (
					<Text key={index} bold={index === 0} wrap='truncate'>
						{`${label(index === 0 ? 'ports' : '')}${line}`}
					</Text>
				))
			) : (
				<Text wrap='truncate'>
					{label('ports')}
					{portsLine(ports, glyphs.dot)}
				</Text>
			)}
		</Box>
	);
}
