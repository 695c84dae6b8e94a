import type {PerformResult} from '../engine/perform.js';
import type {WriteId} from '../engine/writes.js';
import {inertJson, sanitizeLine} from '../format/sanitize.js';
import {exitCodeForWrite} from './exit-code.js';

/**
How every write verb ends: with `--json` one line on stdout (the service's answer, or the outcome
and the reason); otherwise a sentence on stderr. The exit status comes from the one table.
*/
export function reportWrite<Id extends WriteId>(
	result: PerformResult<Id>,
	json: boolean,
	done: (value: NonNullable<PerformResult<Id>['value']>) => string,
): void {
	if (json) {
		const ok = result.outcome === 'ok' ? (result.value ?? {outcome: 'ok', message: result.message}) : undefined;
		process.stdout.write(`${inertJson(ok ?? {outcome: result.outcome, error: result.message})}\n`);
	}

	if (result.outcome === 'ok') {
		if (!json) {
			// Writes that answer nothing (terminate, delete) get no value; their sentence needs none.
			process.stdout.write(`${sanitizeLine(done(result.value as NonNullable<PerformResult<Id>['value']>))}\n`);
		}
	} else {
		process.stderr.write(`podtop: ${sanitizeLine(result.message)}\n`);
	}

	if (result.auditError) {
		process.stderr.write(`podtop: ${sanitizeLine(result.auditError)}\n`);
	}

	process.exitCode = exitCodeForWrite(result.outcome, result.error);
}
