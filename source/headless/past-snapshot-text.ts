import type {PastSnapshot} from '../engine/take-snapshot.js';
import {formatDuration} from '../format/duration.js';
import {formatMoment} from '../format/moment-text.js';
import {sanitizeLine} from '../format/sanitize.js';
import {textTable} from '../format/text-table.js';
import {tierStepMs} from '../history/retention.js';
import {snapshotTables} from './snapshot-text.js';

/** Which figures a past snapshot shows, in words: exact samples, or the rollup bucket the moment falls in. */
export function pastTierText(snapshot: Pick<PastSnapshot, 'at' | 'tier'>): string {
	if (snapshot.tier === 'raw') {
		return 'as recorded: each thing as last sampled at or before then';
	}

	const width = tierStepMs[snapshot.tier];
	const start = Math.floor(Date.parse(snapshot.at) / width) * width;
	return `from the ${snapshot.tier} rollup (raw samples are no longer kept): the last values of ${formatMoment(start, {seconds: false})}–${formatMoment(start + width, {dayShown: false, seconds: false})}`;
}

/** `snapshot --at` for people: the moment and how old it is, where the figures come from, the alerts firing then, and the same three tables as `snapshot`. */
export function pastSnapshotText(snapshot: PastSnapshot, now = Date.now()): string {
	const at = Date.parse(snapshot.at);
	const mode = snapshot.mode === 'demo' ? 'DEMO (built-in simulator)' : 'LIVE';
	const header = `${mode} · ${sanitizeLine(snapshot.apiHost)} · AT ${formatMoment(at)} (${formatDuration((now - at) / 1000)} ago) · ${pastTierText(snapshot)}`;
	const alerts =
		snapshot.alerts.length === 0
			? 'No alert was firing then.'
			: `Alerts firing then:\n${textTable(
					['RULE', 'SUBJECT', 'SINCE', 'MESSAGE'],
					snapshot.alerts.map(alert => [alert.rule, alert.subjectName, formatMoment(alert.since), alert.message]),
				)}`;
	return `${header}\n\n${alerts}\n\n${snapshotTables(snapshot)}`;
}
