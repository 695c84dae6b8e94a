import {sanitizeLine} from '../format/sanitize.js';
import type {CheckResult, CheckStatus} from './check.js';

const unicodeMarks: Readonly<Record<CheckStatus, string>> = {ok: '✓', warn: '!', fail: '✗', skip: '–'};
const asciiMarks: Readonly<Record<CheckStatus, string>> = {ok: '+', warn: '!', fail: 'x', skip: '-'};

/**
`podtop doctor`'s report: a line per check (mark, what, what was found), the fix under each one
that needs it, and a last line that counts them. Every text passes the sanitiser (service errors
are in it).
*/
export function doctorText(results: readonly CheckResult[], {ascii}: {readonly ascii: boolean}): string {
	const marks = ascii ? asciiMarks : unicodeMarks;
	const width = Math.max(...results.map(result => result.title.length)) + 2;
	const lines = results.flatMap(result => [
		`${marks[result.status]} ${result.title.padEnd(width)}${sanitizeLine(result.found)}`,
		...(result.fix ? [`  ${' '.repeat(width)}${ascii ? '->' : '→'} ${sanitizeLine(result.fix)}`] : []),
	]);
	const count = (status: CheckStatus) => results.filter(result => result.status === status).length;
	const failed = count('fail');
	const warned = count('warn');
	const summary =
		failed > 0
			? `${failed} problem${failed === 1 ? '' : 's'} to fix${warned > 0 ? `, ${warned} worth a look` : ''}.`
			: warned > 0
				? `Nothing stops podtop; ${warned} worth a look.`
				: 'Everything podtop depends on is in order.';
	return `${lines.join('\n')}\n\n${summary}\n`;
}
