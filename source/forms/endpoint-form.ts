import type {EndpointInput, EndpointRecord, SavedEndpoint} from '../model/endpoint.js';
import {describeChanges, flashbootModes, planEndpoint, scalerTypes, type EndpointFields} from '../requests/endpoint-request.js';
import type {Field, FormSpec, FormValues} from './form.js';

/** What the endpoint form sends: the changes (or the whole new record) and the review line. */
export type EndpointSave = {readonly changes: Partial<EndpointInput>; readonly summary: string};

const fields: readonly Field[] = [
	{name: 'name', label: 'name', kind: 'text', hint: "the endpoint's name"},
	{name: 'templateId', label: 'template', kind: 'text', hint: 'the template id the workers run'},
	{name: 'gpuIds', label: 'GPU pools', kind: 'text', hint: 'comma separated, e.g. ADA_24,AMPERE_48'},
	{name: 'workersMin', label: 'workers min', kind: 'text', hint: '0 to 100; above 0 keeps workers warm (and billing)'},
	{name: 'workersMax', label: 'workers max', kind: 'text', hint: '0 to 100'},
	{name: 'idleTimeout', label: 'idle timeout (s)', kind: 'text', hint: 'how long an idle worker stays, 1 to 3600'},
	{name: 'scalerType', label: 'scaler', kind: 'choice', choices: scalerTypes, hint: 'scale on queue delay (s) or on request count'},
	{name: 'scalerValue', label: 'scaler value', kind: 'text', hint: 'seconds of delay, or requests per worker'},
	{name: 'locations', label: 'locations', kind: 'text', hint: 'comma separated regions; empty for any'},
	{name: 'networkVolumeId', label: 'network volume', kind: 'text', hint: 'a volume id; empty for none'},
	{name: 'flashBootType', label: 'FlashBoot', kind: 'choice', choices: ['off', 'on', 'priority'], hint: 'faster cold starts; priority adds reserved capacity'},
];

/** `FLASHBOOT` → `on`: the form's word for a record's FlashBoot (off when the record says nothing). */
const flashbootWord = (sent: string | null | undefined) => Object.entries(flashbootModes).find(([, value]) => value === sent)?.[0] ?? 'off';

const asFields = (values: FormValues): EndpointFields => Object.fromEntries(fields.map(field => [field.name, values[field.name] ?? '']));

/** The edit form of an endpoint (`e`): its fields as they are; the review says what changes, old → new. */
export function endpointEditForm(record: EndpointRecord): FormSpec<EndpointSave> {
	const base = record as SavedEndpoint;
	const text = (value: unknown) => (typeof value === 'string' || typeof value === 'number' ? String(value) : '');
	return {
		id: `endpoint-edit:${record.id}`,
		fields,
		initial: Object.fromEntries(
			fields.map(field => [
				field.name,
				field.name === 'flashBootType'
					? flashbootWord(record.flashBootType)
					: text((record as Record<string, unknown>)[field.name]) || (field.name === 'scalerType' ? 'QUEUE_DELAY' : ''),
			]),
		),
		check(values) {
			const {problems, changes} = planEndpoint(asFields(values), base);
			if (!changes) {
				return {problems, summary: 'fix the fields marked to see the changes'};
			}

			const summary = Object.keys(changes).length === 0 ? 'no changes yet' : describeChanges(changes, base);
			return Object.keys(changes).length === 0 ? {problems: {workersMax: 'nothing changed yet'}, summary} : {problems, summary, result: {changes, summary}};
		},
	};
}

/** The form of a new endpoint (`:endpoint new`): name, template and pools required; the rest takes the service's defaults. */
export const endpointNewForm: FormSpec<EndpointSave> = {
	id: 'endpoint-new',
	fields,
	initial: {
		name: '',
		templateId: '',
		gpuIds: '',
		workersMin: '0',
		workersMax: '3',
		idleTimeout: '5',
		scalerType: 'QUEUE_DELAY',
		scalerValue: '4',
		locations: '',
		networkVolumeId: '',
		flashBootType: 'off',
	},
	check(values) {
		const {problems, changes} = planEndpoint(asFields(values));
		return changes
			? {problems, summary: describeChanges(changes), result: {changes, summary: describeChanges(changes)}}
			: {problems, summary: 'name, template and GPU pools are needed'};
	},
};
