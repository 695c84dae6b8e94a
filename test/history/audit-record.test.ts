import {mkdtempSync, rmSync} from 'node:fs';
import {tmpdir} from 'node:os';
import {join} from 'node:path';
import {expect, test} from 'vitest';
import {appendAudit} from '../../source/engine/audit-log.js';
import type {AuditRecord} from '../../source/history/audit-record.js';
import {auditEvent, readAuditSince} from '../../source/history/audit-tail.js';

const record: AuditRecord = {
	time: '2026-11-20T03:00:00.000Z',
	mode: 'live',
	account: 'acct',
	operation: 'endpoint.scale',
	target: {endpointId: 'ep1', endpointName: 'llama'},
	inputBytes: 10,
	inputSha256: 'ab',
	outcome: 'ok',
	durationMs: 12,
};

test('the audit record the engine appends is the one history reads back into the timeline', async () => {
	const folder = mkdtempSync(join(tmpdir(), 'podtop-audit-record-'));
	try {
		const file = join(folder, 'audit.jsonl');
		await appendAudit(file, record);
		const [line] = readAuditSince(file, undefined)!.lines;
		expect(auditEvent(line!, 'acct')).toEqual({
			at: Date.parse(record.time),
			type: 'write',
			kind: 'endpoint',
			subject: 'ep1',
			ref: 'endpoint.scale',
			data: {operation: 'endpoint.scale', target: record.target, outcome: 'ok', durationMs: 12},
		});
		expect(auditEvent(line!, 'another')).toBeUndefined();
	} finally {
		rmSync(folder, {recursive: true, force: true});
	}
});

test('a line not of the record’s shape is no write in the timeline: an outcome or target of another kind, no time', () => {
	const line = (changes: Record<string, unknown>) => JSON.stringify({...record, ...changes});
	expect(auditEvent(line({outcome: {escalated: true}}), 'acct')).toBeUndefined();
	expect(auditEvent(line({outcome: 'exploded'}), 'acct')).toBeUndefined();
	expect(auditEvent(line({target: {endpointId: 7}}), 'acct')).toBeUndefined();
	expect(auditEvent(line({target: 'ep1'}), 'acct')).toBeUndefined();
	expect(auditEvent(line({time: 5}), 'acct')).toBeUndefined();
	expect(auditEvent('[]', 'acct')).toBeUndefined();
	// Fields of the wrong type are left out, not carried into the timeline.
	expect(auditEvent(line({count: 'many', summary: [1]}), 'acct')?.data).toEqual({
		operation: 'endpoint.scale',
		target: record.target,
		outcome: 'ok',
		durationMs: 12,
	});
});
