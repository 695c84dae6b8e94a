import type {EndpointChanges, EndpointInput, EndpointRecord} from '../../model/endpoint.js';
import type {components} from './v2-schema.js';

type CreateBody = components['schemas']['CreateEndpointRequest'];
type UpdateBody = components['schemas']['UpdateEndpointRequest'];
type Scaling = components['schemas']['EndpointScaling'];
type FlashBoot = components['schemas']['FlashBoot'];

const list = (value: string | null | undefined) =>
	(value ?? '')
		.split(',')
		.map(item => item.trim())
		.filter(Boolean);

const present = <T>(value: T | null | undefined): value is T => value !== null && value !== undefined;

/** The service's published default scaler: queue delay, 4 s. */
const defaultScaling = {type: 'QUEUE_DELAY', queueDelay: 4} as const;

function scalingOf(type: string | null | undefined, value: number | null | undefined): Scaling {
	if (type === 'REQUEST_COUNT') {
		return {type: 'REQUEST_COUNT', requestCount: value ?? 1};
	}

	return {type: 'QUEUE_DELAY', queueDelay: value ?? defaultScaling.queueDelay};
}

const flashbootOf = (value: string | null | undefined): FlashBoot | undefined =>
	value === 'OFF' || value === 'FLASHBOOT' || value === 'PRIORITY_FLASHBOOT' ? value : undefined;

/** The fields of a PATCH body that an input (or the changes of one) sets: every field it has, none it leaves out. */
function settingsOf(input: EndpointChanges, scaling: Scaling | undefined, scalerType: string | null | undefined): UpdateBody {
	const pools = input.gpuIds === undefined ? undefined : list(input.gpuIds);
	const cuda = input.allowedCudaVersions === undefined ? undefined : list(input.allowedCudaVersions);
	const gpu = {
		...(pools && pools.length > 0 ? {pools} : {}),
		...(present(input.gpuCount) ? {count: input.gpuCount} : {}),
		...(cuda ? {allowedCudaVersions: cuda} : {}),
	};
	const workers = {
		...(present(input.workersMin) ? {min: input.workersMin} : {}),
		...(present(input.workersMax) ? {max: input.workersMax} : {}),
		// An idle timeout does not apply to a request-count scaler: v2 refuses it there.
		...(present(input.idleTimeout) && scalerType !== 'REQUEST_COUNT' ? {idleTimeout: input.idleTimeout} : {}),
	};
	const flashboot = flashbootOf(input.flashBootType);
	return {
		...(present(input.name) ? {name: input.name} : {}),
		...(present(input.templateId) && input.templateId !== '' ? {templateId: input.templateId} : {}),
		...(Object.keys(gpu).length > 0 ? {gpu} : {}),
		...(Object.keys(workers).length > 0 ? {workers} : {}),
		...(scaling ? {scaling} : {}),
		...(input.locations === undefined ? {} : {dataCenterIds: list(input.locations)}),
		...(input.networkVolumeId === undefined ? {} : {networkVolumes: input.networkVolumeId ? [input.networkVolumeId] : []}),
		...(flashboot ? {flashboot} : {}),
		...(present(input.executionTimeoutMs) ? {timeout: input.executionTimeoutMs} : {}),
		...(input.env ? {env: Object.fromEntries(input.env.map(({key, value}) => [key, value]))} : {}),
	};
}

/** `POST /v2/serverless`: a queue endpoint; v2 needs the scaler stated (the published default when the input has none). */
export function createEndpointBody(input: EndpointInput): CreateBody {
	const scaling = scalingOf(input.scalerType, input.scalerValue);
	const {gpu, ...settings} = settingsOf(input, scaling, scaling.type);
	return {
		...settings,
		name: input.name,
		type: 'QUEUE',
		scaling,
		flashboot: flashbootOf(input.flashBootType) ?? 'OFF',
		...(gpu?.pools ? {gpu: {...gpu, pools: gpu.pools}} : {}),
	};
}

/**
`PATCH /v2/serverless/{id}`: only the fields in `changes`. A scaler is one object (its type and value
together): a change to either sends both, the other from `current`. Sending `gpu.pools` clears the
endpoint's excluded GPU types (v2's rule): podtop's record has none to restate.
*/
export function updateEndpointBody(changes: EndpointChanges, current?: Pick<EndpointRecord, 'scalerType' | 'scalerValue'>): UpdateBody {
	const scalingChanged = changes.scalerType !== undefined || changes.scalerValue !== undefined;
	const scaling = scalingChanged ? scalingOf(changes.scalerType ?? current?.scalerType, changes.scalerValue ?? current?.scalerValue) : undefined;
	return settingsOf(changes, scaling, scaling?.type ?? current?.scalerType);
}

/** Whether a change to the scaler needs the endpoint's current one to be whole. */
export const needsCurrentScaling = (changes: EndpointChanges) => (changes.scalerType === undefined) !== (changes.scalerValue === undefined);
