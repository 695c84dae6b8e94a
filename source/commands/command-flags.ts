import {seriesKinds} from '../history/history-types.js';
import {spendBucketSizes, spendSplits} from '../model/spend.js';
import {clouds} from '../requests/deploy-request.js';
import {scalerTypes} from '../requests/endpoint-request.js';
import {imageFormats} from '../requests/image-request.js';
import {alertFlags} from './alert-flags.js';
import {shells, type CommandPath} from './command-list.js';
import {connectionFlags, readerConnectionFlags, readingConnectionFlags} from './connection-flags.js';
import {displayFlags} from './dashboard-flags.js';
import {historyFlags} from './history-flags.js';
import {imageFlags} from './image-flags.js';
import {defaultListen} from './listen-address.js';
import {timeRangeFlags} from './time-range.js';
import type {CompletableFlags, ValueKind} from './value-kind.js';

const json = {json: {type: 'boolean', default: false}} as const;
const yes = {yes: {type: 'boolean', default: false}} as const;
const dryRun = {dryRun: {type: 'boolean', default: false}} as const;
const workers = {min: {type: 'number'}, max: {type: 'number'}} as const;

const logFlags = {
	...readingConnectionFlags,
	follow: {type: 'boolean', default: false, shortFlag: 'f'},
	tail: {type: 'number'},
	since: {type: 'string'},
	source: {type: 'string', complete: {choices: ['container', 'system']}},
	jsonl: {type: 'boolean', default: false},
} as const;

const endpointFields = {
	...connectionFlags,
	...json,
	...dryRun,
	...workers,
	name: {type: 'string'},
	template: {type: 'string'},
	gpuIds: {type: 'string'},
	idleTimeout: {type: 'string'},
	scalerType: {type: 'string', complete: {choices: scalerTypes}},
	scalerValue: {type: 'string'},
	locations: {type: 'string'},
	networkVolume: {type: 'string'},
	flashboot: {type: 'string', complete: {choices: ['off', 'on', 'priority']}},
} as const;

/**
Every command's flags (meow definitions), by the way it is called (`pod stop`; the dashboard is
`''`): what each command parses, and what `podtop completion` offers, so the two never disagree.
A command with subcommands parses the flags of all of them (`pod` reads its arguments once);
completion offers each subcommand its own. This module is small and loads nothing of the commands.
*/
export const commandFlags = {
	'': {...connectionFlags, ...displayFlags, ...historyFlags, ...alertFlags},
	job: {...connectionFlags, ...displayFlags, ...imageFlags, ...json},
	run: {
		...connectionFlags,
		...displayFlags,
		...imageFlags,
		input: {type: 'string', complete: '@file'},
		sync: {type: 'boolean', default: false},
		wait: {type: 'number'},
		webhook: {type: 'string'},
		executionTimeout: {type: 'number'},
		ttl: {type: 'number'},
		lowPriority: {type: 'boolean', default: false},
		follow: {type: 'boolean', default: true},
		...json,
		...dryRun,
		prompt: {type: 'string'},
		width: {type: 'number'},
		height: {type: 'number'},
		steps: {type: 'number'},
		guidance: {type: 'number'},
		seed: {type: 'number'},
		format: {type: 'string', complete: {choices: imageFormats}},
	},
	load: {
		...connectionFlags,
		...displayFlags,
		input: {type: 'string', complete: '@file'},
		rate: {type: 'string'},
		duration: {type: 'string'},
		jobs: {type: 'number'},
		concurrency: {type: 'number'},
		sync: {type: 'boolean', default: false},
		...yes,
		...json,
	},
	cancel: {...connectionFlags, ...json},
	retry: {...connectionFlags, ...json},
	purge: {...connectionFlags, ...json, ...yes},
	'pod stop': {...connectionFlags, ...json},
	'pod resume': {...connectionFlags, ...json, bid: {type: 'number'}, gpuCount: {type: 'number'}},
	'pod terminate': {...connectionFlags, ...json, ...yes},
	'pod deploy': {
		...connectionFlags,
		gpuType: {type: 'string', complete: 'gpu'},
		count: {type: 'string'},
		cloud: {type: 'string', default: 'all', complete: {choices: clouds}},
		spot: {type: 'boolean', default: false},
		bid: {type: 'string'},
		image: {type: 'string'},
		name: {type: 'string'},
		containerDisk: {type: 'string'},
		volume: {type: 'string'},
		mount: {type: 'string'},
		ports: {type: 'string'},
		env: {type: 'string', isMultiple: true},
		minVcpu: {type: 'string'},
		minMemory: {type: 'string'},
		...dryRun,
		...json,
	},
	'endpoint scale': {...connectionFlags, ...json, ...workers},
	'endpoint update': endpointFields,
	'endpoint create': endpointFields,
	'endpoint delete': {...connectionFlags, ...json, ...yes},
	'logs pod': logFlags,
	'logs worker': {...logFlags, all: {type: 'boolean', default: false}},
	snapshot: {...readingConnectionFlags, ...historyFlags, ...json, at: {type: 'string'}},
	spend: {
		...readingConnectionFlags,
		...historyFlags,
		...timeRangeFlags,
		bucket: {type: 'string', complete: {choices: spendBucketSizes}},
		by: {type: 'string', complete: {choices: spendSplits}},
		...json,
		csv: {type: 'boolean', default: false},
	},
	workers: {...readingConnectionFlags, ...json},
	history: {
		...readerConnectionFlags,
		...historyFlags,
		...timeRangeFlags,
		step: {type: 'string'},
		kind: {type: 'string', complete: {choices: seriesKinds}},
		...json,
		csv: {type: 'boolean', default: false},
		info: {type: 'boolean', default: false},
	},
	events: {
		...readerConnectionFlags,
		...historyFlags,
		...timeRangeFlags,
		type: {type: 'string', complete: 'event-types'},
		jsonl: {type: 'boolean', default: false},
	},
	watch: {...readingConnectionFlags, ...historyFlags, alerts: alertFlags.alerts, jsonl: {type: 'boolean', default: true, writtenOn: true}},
	agent: {...connectionFlags, ...historyFlags, group: {type: 'string', complete: 'group'}, export: {type: 'string'}, alerts: alertFlags.alerts},
	export: {...readingConnectionFlags, listen: {type: 'string', default: defaultListen}},
	sim: {
		host: {type: 'string', default: '127.0.0.1'},
		port: {type: 'number', default: 8787},
		apiKey: {type: 'string'},
		faults: {type: 'string', complete: '@file'},
		seed: {type: 'number', default: 1},
		speed: {type: 'number', default: 1},
		rateLimitScale: {type: 'number', default: 1},
		workerAllowance: {type: 'number', default: 50},
		endpoints: {type: 'number', default: 9},
		pods: {type: 'number', default: 12},
		graphqlRate: {type: 'number', default: 5},
		v2Quota: {type: 'string', default: '60/3000/50000'},
		graphql: {type: 'string', default: 'on', complete: {choices: ['on', 'retired']}},
		load: {type: 'boolean', default: true},
		past: {type: 'string'},
	},
	completion: {},
	doctor: {
		...readerConnectionFlags,
		restUrl: connectionFlags.restUrl,
		...historyFlags,
		agent: connectionFlags.agent,
		alerts: alertFlags.alerts,
		...json,
		ascii: {type: 'boolean', default: false},
	},
} as const satisfies Readonly<Record<CommandPath, CompletableFlags>>;

/** What `pod` parses (its subcommands but deploy, which parses its own). */
export const podFlags = {...commandFlags['pod stop'], ...commandFlags['pod resume'], ...commandFlags['pod terminate']};

/** What `logs` parses (both its subcommands). */
export const logsFlags = {...commandFlags['logs pod'], ...commandFlags['logs worker']};

/** What `endpoint` parses, for each of its subcommands. */
export const endpointFlags = {
	...commandFlags['endpoint scale'],
	...commandFlags['endpoint update'],
	...commandFlags['endpoint create'],
	...commandFlags['endpoint delete'],
};

/** What completes each command's leading operands, in order (`job <endpoint> <id>`: the endpoint; a job id is nobody's to list). */
export const commandOperands: Readonly<Partial<Record<CommandPath, readonly ValueKind[]>>> = {
	job: ['any-endpoint'],
	run: ['any-endpoint'],
	load: ['any-endpoint'],
	cancel: ['any-endpoint'],
	retry: ['any-endpoint'],
	purge: ['endpoint'],
	workers: ['endpoint'],
	'pod stop': ['pod'],
	'pod resume': ['pod'],
	'pod terminate': ['pod'],
	'endpoint scale': ['endpoint'],
	'endpoint update': ['endpoint'],
	'endpoint delete': ['endpoint'],
	'logs pod': ['pod'],
	'logs worker': ['endpoint'],
	history: ['thing'],
	completion: [{choices: shells}],
};
