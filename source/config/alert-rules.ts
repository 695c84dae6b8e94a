import {parseTomlDocument} from './toml.js';

/** What a rule watches, and when it fires. */
export type AlertCondition =
	/** An endpoint's queue over `over` jobs for `forMs`. */
	| {readonly kind: 'queue'; readonly over: number; readonly forMs: number; readonly endpoint: string}
	/** An endpoint's failed share of finished jobs over `overPercent` in the last `windowMs`. */
	| {readonly kind: 'failure-rate'; readonly overPercent: number; readonly windowMs: number; readonly endpoint: string}
	/** Any unhealthy or throttled worker on an endpoint. */
	| {readonly kind: 'workers'; readonly endpoint: string}
	/** The diagnosis reads a crash loop (workers UNHEALTHY, restarting, going young or serving nothing while jobs wait, whatever status they show). */
	| {readonly kind: 'crash-loop'; readonly endpoint: string}
	/** Jobs wait and none is served (none finishes, none in progress) for `forMs`. */
	| {readonly kind: 'stuck-queue'; readonly forMs: number; readonly endpoint: string}
	/** A GPU type's stock at Low or gone (`at = "Low"`), or gone only (`at = "None"`). */
	| {readonly kind: 'gpu-stock'; readonly gpu: string; readonly at: 'Low' | 'None'}
	/** A running pod costing over `costingOver` $/h with GPUs under `underPercent` mean GPU utilisation for `forMs`: paying for nothing. */
	| {readonly kind: 'idle-pod'; readonly underPercent: number; readonly forMs: number; readonly costingOver: number; readonly pod: string}
	/** The running pods' $/h over `over`. */
	| {readonly kind: 'spend'; readonly over: number}
	/** The account's balance lasting under `underMs` at its current spend per hour (GraphQL's figures, while it publishes them). */
	| {readonly kind: 'balance'; readonly underMs: number}
	/** The month's forecast (billed so far plus the current spend per hour to the month's end, UTC) over `monthly` dollars. */
	| {readonly kind: 'budget'; readonly monthly: number}
	/** The account's spend per hour at `nearPercent` of its spend limit (`limit`, $/h) or over. */
	| {readonly kind: 'spend-limit'; readonly nearPercent: number; readonly limit: number}
	/**
	The `percentile` (95) of an endpoint's probe times (`measure`: delay, execution or their total)
	over the probes of the last `windowMs`, over `overMs` for `forMs`.
	*/
	| {
			readonly kind: 'latency';
			readonly percentile: number;
			readonly measure: ProbeMeasure;
			readonly overMs: number;
			readonly windowMs: number;
			readonly forMs: number;
			readonly endpoint: string;
	  };

/** What a latency rule measures of a probe: its time in the queue, its run, or both. */
export type ProbeMeasure = 'delay' | 'execution' | 'total';

/** A `[[probe]]`: one small job to each endpoint matching `endpoint`, every `everyMs`, timed and recorded. */
export type ProbeRule = {
	readonly name: string;
	readonly endpoint: string;
	readonly everyMs: number;
	readonly input: Readonly<Record<string, unknown>>;
	/** How long a probe is followed before it counts as timed out (it is never cancelled, never sent again). */
	readonly timeoutMs: number;
};

export type AlertRule = AlertCondition & {readonly name: string};

export type AlertWebhook = {readonly url: string; readonly retries: number};

export type AlertRules = {
	readonly rules: readonly AlertRule[];
	readonly webhook: AlertWebhook | undefined;
	/** Probes to send (none unless configured): they cost a job each. */
	readonly probes?: readonly ProbeRule[];
};

/** A rules file that cannot be used: where and why, said so a person can fix it. */
export class AlertRulesError extends Error {}

const kinds = {
	queue: ['over', 'for', 'endpoint'],
	'failure-rate': ['over', 'window', 'endpoint'],
	workers: ['endpoint'],
	'crash-loop': ['endpoint'],
	'stuck-queue': ['for', 'endpoint'],
	'gpu-stock': ['gpu', 'at'],
	'idle-pod': ['under', 'for', 'costing', 'pod'],
	spend: ['over'],
	balance: ['under'],
	'spend-limit': ['near', 'limit'],
	budget: ['monthly'],
	latency: ['over', 'for', 'window', 'percentile', 'measure', 'endpoint'],
} as const;

const probeKeys = ['name', 'endpoint', 'every', 'input', 'timeout'];
/** Probes more often than this would be load, not a probe. */
export const minimumProbeEveryMs = 1000;

type Kind = keyof typeof kinds;

const isKind = (value: unknown): value is Kind => typeof value === 'string' && Object.hasOwn(kinds, value);

/** `90s`, `2m`, `1h`, `1h30m` (or a number of seconds) in milliseconds. */
export function parseDuration(value: unknown): number | undefined {
	if (typeof value === 'number' && Number.isFinite(value) && value >= 0) {
		return value * 1000;
	}

	if (typeof value !== 'string' || !/^(?:\d+(?:\.\d+)?[smh])+$/.test(value.trim())) {
		return undefined;
	}

	let total = 0;
	for (const [, amount, unit] of value.trim().matchAll(/(\d+(?:\.\d+)?)([smh])/g)) {
		total += Number(amount) * (unit === 'h' ? 3_600_000 : unit === 'm' ? 60_000 : 1000);
	}

	return total;
}

/** The line of the n-th `[[rule]]` (or `[[probe]]`) header, for messages about that table. */
function tableLines(text: string, table: 'rule' | 'probe'): number[] {
	const header = new RegExp(String.raw`^\s*\[\[\s*${table}\s*]]`);
	return text.split('\n').flatMap((line, index) => (header.test(line) ? [index + 1] : []));
}

/**
Reads an alert rules file (TOML): `[[rule]]` tables, each with a `kind` and its own keys, and an
optional `[webhook]` with `url` (and `retries`). Anything it cannot use is an `AlertRulesError`
that says the file, the line and what to write instead.
*/
export function parseAlertRules(text: string, file: string): AlertRules {
	const parsed = parseTomlDocument(text);
	if ('problem' in parsed) {
		const {line, column, reason} = parsed.problem;
		throw new AlertRulesError(`${file} does not parse at line ${line}, column ${column}: ${reason}`);
	}

	const {document} = parsed;

	for (const key of Object.keys(document)) {
		if (key !== 'rule' && key !== 'webhook' && key !== 'probe') {
			throw new AlertRulesError(`${file}: unknown table or key "${key}"; the file has [[rule]] and [[probe]] tables and an optional [webhook]`);
		}
	}

	const lines = tableLines(text, 'rule');
	const tables = document.rule === undefined ? [] : document.rule;
	if (!Array.isArray(tables)) {
		throw new AlertRulesError(`${file}: rules are [[rule]] tables (with two brackets)`);
	}

	const rules = tables.map((table: unknown, index) => {
		const where = `${file} line ${lines[index] ?? '?'} (rule ${index + 1})`;
		return readRule(table as Record<string, unknown>, where);
	});
	const probes = readProbes(document.probe, tableLines(text, 'probe'), file);
	return {rules, webhook: readWebhook(document.webhook, file), ...(probes.length > 0 ? {probes} : {})};
}

function readProbes(value: unknown, lines: readonly number[], file: string): ProbeRule[] {
	if (value === undefined) {
		return [];
	}

	if (!Array.isArray(value)) {
		throw new AlertRulesError(`${file}: probes are [[probe]] tables (with two brackets)`);
	}

	return value.map((table: Record<string, unknown>, index) => {
		const where = `${file} line ${lines[index] ?? '?'} (probe ${index + 1})`;
		for (const key of Object.keys(table)) {
			if (!probeKeys.includes(key)) {
				throw new AlertRulesError(`${where}: a probe has no key "${key}"; its keys are ${probeKeys.join(', ')}`);
			}
		}

		const {endpoint, input} = table;
		if (typeof endpoint !== 'string' || endpoint.trim() === '') {
			throw new AlertRulesError(`${where}: endpoint is required: an id or a name (with * as a wildcard), like endpoint = "llama-*"`);
		}

		const everyMs = parseDuration(table.every ?? '5m');
		if (everyMs === undefined || everyMs < minimumProbeEveryMs) {
			throw new AlertRulesError(`${where}: every must be a duration of 1s or more, like "5m"`);
		}

		const timeoutMs = parseDuration(table.timeout ?? '10m');
		if (timeoutMs === undefined || timeoutMs < minimumProbeEveryMs) {
			throw new AlertRulesError(`${where}: timeout must be a duration of 1s or more, like "10m"`);
		}

		if (typeof input !== 'object' || input === null || Array.isArray(input) || input instanceof Date) {
			throw new AlertRulesError(`${where}: input is required: the job's input as a table, like input = {prompt = "ping", max_tokens = 1}`);
		}

		const name = table.name ?? `probe ${endpoint.trim()}`;
		if (typeof name !== 'string' || name.trim() === '') {
			throw new AlertRulesError(`${where}: name must be a non-empty string`);
		}

		return {name: name.trim(), endpoint: endpoint.trim(), everyMs, input: input as Record<string, unknown>, timeoutMs};
	});
}

function readWebhook(value: unknown, file: string): AlertWebhook | undefined {
	if (value === undefined) {
		return undefined;
	}

	const table = value as Record<string, unknown>;
	let url: URL | undefined;
	try {
		url = typeof table.url === 'string' ? new URL(table.url) : undefined;
	} catch {}

	if (!url || (url.protocol !== 'https:' && url.protocol !== 'http:')) {
		throw new AlertRulesError(`${file} [webhook]: url must be an http(s) URL, like url = "https://hooks.slack.com/services/…"`);
	}

	const retries = table.retries ?? 5;
	if (typeof retries !== 'number' || !Number.isInteger(retries) || retries < 0 || retries > 20) {
		throw new AlertRulesError(`${file} [webhook]: retries must be a whole number from 0 to 20`);
	}

	return {url: url.href, retries};
}

function readRule(table: Record<string, unknown>, where: string): AlertRule {
	const {kind} = table;
	if (!isKind(kind)) {
		throw new AlertRulesError(`${where}: kind must be one of ${Object.keys(kinds).join(', ')}${kind === undefined ? '' : `, not ${JSON.stringify(kind)}`}`);
	}

	const allowed = new Set<string>(['kind', 'name', ...kinds[kind]]);
	for (const key of Object.keys(table)) {
		if (!allowed.has(key)) {
			throw new AlertRulesError(`${where}: a ${kind} rule has no key "${key}"; its keys are ${[...allowed].join(', ')}`);
		}
	}

	const name = table.name ?? kind;
	if (typeof name !== 'string' || name.trim() === '') {
		throw new AlertRulesError(`${where}: name must be a non-empty string`);
	}

	const number = (key: string, {required = true, fallback}: {required?: boolean; fallback?: number} = {}) => {
		const value = table[key] ?? fallback;
		if (value === undefined && !required) {
			return undefined;
		}

		if (typeof value !== 'number' || !Number.isFinite(value) || value < 0) {
			throw new AlertRulesError(`${where}: ${key} must be a number ≥ 0${value === undefined ? ' (it is required for this kind)' : ''}`);
		}

		return value;
	};

	const duration = (key: string, fallback: string) => {
		const value = parseDuration(table[key] ?? fallback);
		if (value === undefined) {
			throw new AlertRulesError(`${where}: ${key} must be a duration like "90s", "5m" or "1h"`);
		}

		return value;
	};

	const pattern = (key: string) => {
		const value = table[key] ?? '*';
		if (typeof value !== 'string') {
			throw new AlertRulesError(`${where}: ${key} must be an id or a name (with * as a wildcard)`);
		}

		return value;
	};

	const base = {name: name.trim()};
	switch (kind) {
		case 'queue': {
			return {...base, kind, over: number('over')!, forMs: duration('for', '0s'), endpoint: pattern('endpoint')};
		}

		case 'failure-rate': {
			const overPercent = number('over')!;
			if (overPercent > 100) {
				throw new AlertRulesError(`${where}: over is a percentage (0 to 100)`);
			}

			return {...base, kind, overPercent, windowMs: duration('window', '5m'), endpoint: pattern('endpoint')};
		}

		case 'workers':
		case 'crash-loop': {
			return {...base, kind, endpoint: pattern('endpoint')};
		}

		case 'stuck-queue': {
			return {...base, kind, forMs: duration('for', '5m'), endpoint: pattern('endpoint')};
		}

		case 'gpu-stock': {
			const at = table.at ?? 'Low';
			if (at !== 'Low' && at !== 'None') {
				throw new AlertRulesError(`${where}: at must be "Low" (Low or gone) or "None" (gone)`);
			}

			return {...base, kind, gpu: pattern('gpu'), at};
		}

		case 'idle-pod': {
			return {
				...base,
				kind,
				underPercent: number('under', {fallback: 5})!,
				forMs: duration('for', '30m'),
				costingOver: number('costing', {fallback: 0.5})!,
				pod: pattern('pod'),
			};
		}

		case 'spend': {
			return {...base, kind, over: number('over')!};
		}

		case 'balance': {
			return {...base, kind, underMs: duration('under', '24h')};
		}

		case 'spend-limit': {
			const nearPercent = number('near', {fallback: 90})!;
			if (nearPercent > 100) {
				throw new AlertRulesError(`${where}: near is a percentage of the limit (0 to 100)`);
			}

			return {...base, kind, nearPercent, limit: number('limit', {fallback: 80})!};
		}

		case 'budget': {
			const monthly = number('monthly')!;
			if (!(monthly > 0)) {
				throw new AlertRulesError(`${where}: monthly is the month's budget in dollars, over 0, like monthly = 500`);
			}

			return {...base, kind, monthly};
		}

		case 'latency': {
			const overMs = parseDuration(table.over);
			if (overMs === undefined) {
				throw new AlertRulesError(
					`${where}: over must be a duration like "30s" (the time the percentile must pass)${table.over === undefined ? '; it is required for this kind' : ''}`,
				);
			}

			const percentile = number('percentile', {fallback: 95})!;
			if (percentile <= 0 || percentile > 100) {
				throw new AlertRulesError(`${where}: percentile must be over 0 and at most 100, like 95`);
			}

			const measure = table.measure ?? 'total';
			if (measure !== 'delay' && measure !== 'execution' && measure !== 'total') {
				throw new AlertRulesError(`${where}: measure must be "delay" (in the queue), "execution" (running) or "total" (both)`);
			}

			return {
				...base,
				kind,
				percentile,
				measure,
				overMs,
				windowMs: duration('window', '15m'),
				forMs: duration('for', '0s'),
				endpoint: pattern('endpoint'),
			};
		}
	}
}
