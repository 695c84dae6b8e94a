import {formatRange} from '../format/moment-text.js';
import {formatBytes} from '../format/numbers.js';
import type {HistoryReader, RecordingState} from '../history/history-types.js';
import {checkResult, type CheckResult} from './check.js';

const title = 'history';

/**
The history podtop would show: where it comes from (the account's file, the agent, Prometheus),
its size, span and, for the file, `PRAGMA integrity_check`. A reader that fails is said as found.
*/
export async function historyCheck(
	status: RecordingState,
	reader: HistoryReader | undefined,
	{disabled, directory}: {readonly disabled: boolean; readonly directory: string},
): Promise<CheckResult> {
	if (disabled) {
		return checkResult({id: 'history', title, status: 'skip', found: 'off (--no-history)'});
	}

	if (!reader) {
		return checkResult({
			id: 'history',
			title,
			status: 'warn',
			found: `none of this account in ${directory} yet`,
			fix: '`podtop agent` records the account (so does a dashboard polling on its own); --history-dir or --history-source read another',
		});
	}

	try {
		const info = await reader.info({integrity: reader.kind === 'sqlite'});
		const span = await reader.span();
		const spanText = span ? formatRange(span.from, span.to) : 'nothing yet';
		const size = info.bytes === undefined ? '' : `, ${formatBytes(info.bytes)}`;
		const figures = {kind: info.kind, source: info.source, bytes: info.bytes, from: span?.from, to: span?.to, integrity: info.integrity};
		const source = info.kind === 'prometheus' ? `Prometheus ${info.source}` : info.kind === 'agent' ? `the agent (${info.source})` : info.source;
		if (info.integrity !== undefined && info.integrity !== 'ok') {
			return checkResult({
				id: 'history',
				title,
				status: 'fail',
				found: `${source}${size}: integrity check says ${info.integrity.split('\n')[0] ?? 'not ok'}`,
				fix: `stop podtop, move ${info.source} aside and start again (a new file is begun; the old one can be inspected with sqlite3)`,
				figures,
			});
		}

		const paused = status.state === 'paused' ? `; recording paused: ${status.reason}` : '';
		return checkResult({
			id: 'history',
			title,
			status: paused ? 'warn' : 'ok',
			found: `${source}${size}, ${spanText}${info.integrity === 'ok' ? ', integrity ok' : ''}${paused}`,
			...(paused ? {fix: 'free disk space in the history folder: recording resumes by itself'} : {}),
			figures,
		});
	} catch (error) {
		return checkResult({
			id: 'history',
			title,
			status: 'fail',
			found: `${status.state === 'remote' ? (status.source === 'prometheus' ? 'Prometheus' : 'the agent') : 'the history'} cannot be read: ${(error as Error).message}`,
			fix: info(status),
		});
	}
}

function info(status: RecordingState): string {
	return status.state === 'remote' && status.source === 'prometheus'
		? 'check the Prometheus URL given to --history-source (it must answer /api/v1/query_range)'
		: 'check the history folder (--history-dir) is yours and readable';
}
