import {ApiError, describeError, mayHaveHappened} from '../api/errors.js';
import {redact} from '../api/redact.js';
import {sanitizeLine} from '../format/sanitize.js';
import type {Pollers} from '../poll/pollers.js';
import type {ScheduledApi} from '../poll/scheduled-api.js';
import type {StoreWrites} from '../store/create-store.js';
import type {AuditRecord} from '../history/audit-record.js';
import {appendAudit, inputDigest} from './audit-log.js';
import type {Label} from './write-spec.js';
import {writeSpecs, type WriteId, type WriteTypes} from './writes.js';

/** How a write ended. `ambiguous`: it failed in a way that can hide a success; it was not sent again. */
export type PerformOutcome = 'ok' | 'refused' | 'failed' | 'ambiguous' | 'read-only';

export type PerformResult<Id extends WriteId> = {
	readonly outcome: PerformOutcome;
	/** The service's answer, when `ok`. */
	readonly value?: WriteTypes[Id]['result'];
	readonly error?: unknown;
	/** One line for the footer or stderr: sanitised, key-free, and for `ambiguous` how to check. */
	readonly message: string;
	readonly durationMs: number;
	/** Set when the audit log could not be written (shown, never fatal). */
	readonly auditError?: string;
};

export type PerformContext = {
	readonly api: ScheduledApi;
	readonly writes: StoreWrites;
	readonly pollers: Pollers;
	readonly mode: 'demo' | 'live';
	readonly readOnly: boolean;
	/** Why read-only, said in the refusal (a profile marked read-only, and how to write). */
	readonly readOnlyReason?: string;
	/** Where the audit log goes; undefined: not kept (tests). */
	readonly auditPath: string | undefined;
	readonly apiKey: string;
	/** The account's id (a hash, never the key), so its history can find its writes in the audit log. */
	readonly account?: string;
	/** Names the things a message speaks of (`llama (ep1)`); without it, their ids. */
	readonly label?: Label;
	/** Told of each write as its audit line says it (kept or not): an agent of another user learns of it so. */
	readonly onWrite?: (entry: AuditRecord) => void;
};

const auditOutcome: Record<PerformOutcome, AuditRecord['outcome']> = {
	ok: 'ok',
	refused: 'refused',
	failed: 'failed',
	ambiguous: 'may-have-happened',
	'read-only': 'read-only',
};

/**
Sends one write: refused in read-only mode before anything leaves the process, through the rate
budget at the `action` priority, never re-sent, appended to the audit log, then a targeted re-poll.
*/
export async function perform<Id extends WriteId>(
	context: PerformContext,
	id: Id,
	target: WriteTypes[Id]['target'],
	input: WriteTypes[Id]['input'],
): Promise<PerformResult<Id>> {
	const spec = writeSpecs[id];
	const started = performance.now();
	// Ids in the description come from the user or the service: inert before any message uses them.
	const what = sanitizeLine(spec.describe(target, context.label ?? ((_kind, id) => id)));
	let result: PerformResult<Id>;
	if (context.readOnly) {
		const why = context.readOnlyReason ? ` (${context.readOnlyReason})` : '';
		result = {outcome: 'read-only', message: `read-only mode${why}: did not ${what}`, durationMs: 0};
	} else {
		try {
			const value = await spec.send(context.api, target, input, context.writes);
			result = {outcome: 'ok', value, message: `done: ${what}`, durationMs: performance.now() - started};
			spec.after({writes: context.writes, pollers: context.pollers}, target, value);
		} catch (error) {
			const durationMs = performance.now() - started;
			const reason = sanitizeLine(redact(describeError(error), context.apiKey));
			if (mayHaveHappened(error)) {
				result = {outcome: 'ambiguous', error, message: `may have happened: ${what} (${reason}); not sent again. ${spec.howToCheck(target)}`, durationMs};
			} else {
				const refused = error instanceof ApiError && error.kind !== 'network' && error.kind !== 'timeout';
				result = {outcome: refused ? 'refused' : 'failed', error, message: `${refused ? 'refused' : 'not sent'}: ${what}: ${reason}`, durationMs};
			}
		}
	}

	const entry: AuditRecord = {
		time: new Date().toISOString(),
		mode: context.mode,
		...(context.account ? {account: context.account} : {}),
		operation: id,
		target: Object.fromEntries(Object.entries(target).map(([name, value]) => [name, sanitizeLine(String(value))])),
		...inputDigest(spec.digestOf ? spec.digestOf(input) : input),
		outcome: auditOutcome[result.outcome],
		durationMs: Math.round(result.durationMs),
		...(result.outcome === 'ok' ? {} : {error: result.message}),
		...(result.outcome === 'ok' && spec.auditFields ? spec.auditFields(result.value!) : {}),
	};
	if (context.auditPath) {
		try {
			await appendAudit(context.auditPath, entry);
		} catch (error) {
			result = {...result, auditError: `audit log not written (${context.auditPath}): ${error instanceof Error ? error.message : String(error)}`};
		}
	}

	context.onWrite?.(entry);
	return result;
}
