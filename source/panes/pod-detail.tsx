import {Table} from '@alcalzone/ink-table';
import {Box, Text} from 'ink';
import {DataAge} from '../components/data-age.js';
import {usePodtop, useServices} from '../components/services.js';
import {formatDuration} from '../format/duration.js';
import {sparkline} from '../format/glyphs.js';
import {sanitizeLine} from '../format/sanitize.js';
import {podStatus} from '../rows/pod-rows.js';
import {describeCost} from '../store/pod-figures.js';

type Props = {readonly podId: string; readonly showEnv: boolean; readonly width: number; readonly height: number};

const label = (text: string) => text.padEnd(10);

/** `KEY=value` as the name alone, or whole when asked: values often hold secrets. */
function envLine(entry: string, showValues: boolean): string {
	const equals = entry.indexOf('=');
	const name = equals === -1 ? entry : entry.slice(0, equals);
	return showValues ? sanitizeLine(entry) : `${sanitizeLine(name)}=••••`;
}

/**
One pod: image, GPUs, vCPU, memory, disks, machine, uptime, what it costs now and its running price;
its ports as a small table; its environment by name (values on `v`); per-GPU utilisation and memory
with their history.
*/
export function PodDetail({podId, showEnv, width, height}: Props) {
	const {colors, glyphs} = useServices();
	const detail = usePodtop(state => (state.podDetail?.podId === podId ? state.podDetail : undefined));
	const listed = usePodtop(state => state.pods.byId[podId]?.record);
	const record = detail?.record ?? listed;
	if (detail?.record === null) {
		return <Text color={colors.warn}>{`Pod ${sanitizeLine(podId)} is gone (terminated). Esc back`}</Text>;
	}

	if (!record) {
		return <Text color={colors.muted}>{`Pod ${sanitizeLine(podId)}: loading its details…`}</Text>;
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
		[
			'machine',
			`${sanitizeLine(record.machineId ?? '–')} in ${sanitizeLine(record.machine?.location ?? '–')} · ${sanitizeLine(record.podType === 'INTERRUPTABLE' ? 'spot' : 'on demand')}`,
		],
		['uptime', runtime ? formatDuration(runtime.uptimeInSeconds) : '–'],
		['cost', describeCost(record)],
	];
	const ports = (runtime?.ports ?? []).flatMap(port =>
		port
			? [
					{
						ip: sanitizeLine(port.ip ?? '–'),
						public: port.isIpPublic ? 'yes' : 'no',
						port: `${port.privatePort ?? '?'} → ${port.publicPort ?? '?'}`,
						type: sanitizeLine(port.type ?? '?'),
					},
				]
			: [],
	);
	const env = (record.env ?? []).flatMap(entry => (entry ? [envLine(entry, showEnv)] : []));
	const history = detail?.gpuHistory ?? [];
	return (
		<Box flexDirection='column' width={width} height={height} overflow='hidden'>
			<Box>
				<Box flexGrow={1}>
					<Text bold color={colors.accent} wrap='truncate'>
						{`${sanitizeLine(record.name || record.id)} (${sanitizeLine(record.id)}) ${status.label}  Esc back · v env values · x stop · u resume`}
					</Text>
				</Box>
				<DataAge source='graphql' width={30} />
			</Box>
			{facts.map(([name, text]) => (
				<Text key={name} wrap='truncate'>
					{label(name)}
					{text}
				</Text>
			))}
			{(runtime?.gpus ?? []).map((gpu, index) => (
				<Text key={gpu?.id ?? index} wrap='truncate'>
					{label(`GPU ${index}`)}
					{`util ${String(gpu?.gpuUtilPercent ?? '–').padStart(3)}% ${sparkline(history[index]?.util ?? [], 20, glyphs, 100)}  memory ${String(gpu?.memoryUtilPercent ?? '–').padStart(3)}% ${sparkline(history[index]?.memory ?? [], 20, glyphs, 100)}`}
				</Text>
			))}
			<Text wrap='truncate'>
				{label('env')}
				{detail ? (env.length === 0 ? 'none' : env.join('  ')) : 'loading…'}
				<Text dimColor>{env.length > 0 && !showEnv ? '  (v shows the values)' : ''}</Text>
			</Text>
			{ports.length === 0 ? (
				<Text>
					{label('ports')}
					{detail ? (runtime ? 'none exposed' : 'none while the pod is not running') : 'loading…'}
				</Text>
			) : (
				<Table data={ports} />
			)}
		</Box>
	);
}
