/** How a write ended, as the audit log says it. */
export const auditOutcomes = ['ok', 'refused', 'failed', 'may-have-happened', 'read-only'] as const;
export type AuditOutcome = (typeof auditOutcomes)[number];

/**
One line of the audit log (`audit.jsonl`): a write and how it ended, never its input or the key.
The engine appends it; history reads it back into the timeline, and a client forwards its writes
to an agent that cannot read its log.
*/
export type AuditRecord = {
	readonly time: string;
	readonly mode: 'demo' | 'live';
	/** Which account (a hash of the key and service, as the history file is named): never the key. */
	readonly account?: string;
	readonly operation: string;
	readonly target: Readonly<Record<string, string>>;
	/** Size and SHA-256 of the input as sent: enough to match a request, never the input itself. */
	readonly inputBytes: number;
	readonly inputSha256: string | undefined;
	readonly outcome: AuditOutcome;
	readonly durationMs: number;
	readonly error?: string;
	/** A write that sends many jobs (`endpoint.load`): how many the service accepted. */
	readonly count?: number;
	/** A load's figures (counts, percentiles, cold starts), for history's timeline. */
	readonly summary?: Readonly<Record<string, unknown>>;
};

/** The fields of an audit record the timeline keeps. */
export type AuditWrite = Pick<AuditRecord, 'time' | 'operation' | 'target' | 'outcome' | 'durationMs' | 'error' | 'count' | 'summary'>;

const isRecord = (value: unknown): value is Record<string, unknown> => typeof value === 'object' && value !== null && !Array.isArray(value);

/**
An audit line read back (the file is this user's, but any program of theirs may have written it):
the fields the timeline keeps, each of its type, and the account; undefined when the line is not a
record (not JSON, no operation or time, an outcome or target of another shape).
*/
export function readAuditLine(line: string): (AuditWrite & {readonly account?: string}) | undefined {
	let entry: unknown;
	try {
		entry = JSON.parse(line);
	} catch {
		return undefined;
	}

	if (!isRecord(entry) || typeof entry.operation !== 'string' || typeof entry.time !== 'string') {
		return undefined;
	}

	const target = isRecord(entry.target) ? Object.entries(entry.target) : undefined;
	const outcome = auditOutcomes.find(known => known === entry.outcome);
	if (!target?.every(([, value]) => typeof value === 'string') || outcome === undefined) {
		return undefined;
	}

	return {
		time: entry.time,
		operation: entry.operation,
		target: Object.fromEntries(target) as Record<string, string>,
		outcome,
		durationMs: typeof entry.durationMs === 'number' ? entry.durationMs : 0,
		...(typeof entry.error === 'string' ? {error: entry.error} : {}),
		...(typeof entry.count === 'number' ? {count: entry.count} : {}),
		...(isRecord(entry.summary) ? {summary: entry.summary} : {}),
		...(typeof entry.account === 'string' ? {account: entry.account} : {}),
	};
}
