import {resolve} from 'node:path';
import type {HistoryOptions} from '../history/open-history.js';
import {parseRetention} from '../history/retention.js';
import {parseSpan} from '../lib/time-spec.js';
import {UsageError} from '../lib/usage-error.js';
import type {CompletableFlags} from './value-kind.js';

/** Flags of every command that records or reads history (meow flag definitions). */
export const historyFlags = {
	history: {type: 'boolean', default: true},
	historyDir: {type: 'string', complete: 'directory'},
	retention: {type: 'string'},
	historySource: {type: 'string'},
	demoPast: {type: 'string'},
} as const satisfies CompletableFlags;

export const historyHelp = `
	History
	  --history-dir DIR  Where the account's history is kept  [default: $XDG_STATE_HOME/podtop/history]
	  --no-history       Record nothing, read nothing
	  --retention SPEC   How long each tier is kept  [default: raw=48h,minute=30d,hour=1y]
	  --history-source prometheus=URL
	                     Read history from a Prometheus that scrapes \`podtop export\` instead
	  --demo-past SPAN   How much of its past the demo simulates for history to hold at once
	                     (up to 7d; 0 for none)  [default: 2h]`;

type Flags = {
	readonly history: boolean;
	readonly historyDir?: string;
	readonly retention?: string;
	readonly historySource?: string;
	readonly demoPast?: string;
};

/** `--demo-past 6h` (or 0): a span the simulator can run. */
function readDemoPast(value: string | undefined): number | undefined {
	if (value === undefined) {
		return undefined;
	}

	const span = value.trim() === '0' ? 0 : parseSpan(value);
	if (span === undefined || span > 7 * 86_400_000) {
		throw new UsageError(`--demo-past takes a span up to 7d, like 6h or 90m (0 for none), got "${value}"`);
	}

	return span;
}

/** What was typed, with any password in a URL left out. */
const redactUrl = (text: string) => text.replace(/\/\/([^/@\s]*)@/, (_, credentials: string) => `//${credentials.split(':')[0]}:…@`);

/** The history flags as options; a bad retention or source is a UsageError that says what to write. */
export function readHistoryFlags(flags: Flags): HistoryOptions {
	const retention = flags.retention === undefined ? undefined : parseRetention(flags.retention);
	const demoPastMs = readDemoPast(flags.demoPast);
	if (flags.historySource !== undefined) {
		const [kind, ...rest] = flags.historySource.split('=');
		const url = rest.join('=');
		if (kind !== 'prometheus' || !/^https?:\/\/[^\s/]+/.test(url) || !URL.canParse(url)) {
			throw new UsageError(`--history-source takes prometheus=URL (like prometheus=http://127.0.0.1:9090), got "${redactUrl(flags.historySource)}"`);
		}

		return {disabled: !flags.history, prometheusUrl: flags.history ? url : undefined, retention, demoPastMs};
	}

	return {disabled: !flags.history, directory: flags.historyDir === undefined ? undefined : resolve(flags.historyDir), retention, demoPastMs};
}
