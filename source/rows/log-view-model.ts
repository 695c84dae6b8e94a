import type {LogSnapshot, LogSubject} from '../model/log-session.js';
import {filterSpans} from '../view-state/filter-matcher.js';
import type {LogSettings} from '../view-state/log-settings.js';
import {layoutLine, type LogRow} from './log-layout.js';
import {selectLogLines, type LogSelection, type ShownLine} from './log-selection.js';

/** The log view's lines above its text: the title and the state line. */
export const logViewChrome = 2;

/** The rows of the log view's text at a body height. */
export const logTextRows = (bodyHeight: number) => Math.max(1, bodyHeight - logViewChrome);

/**
How the log view lays out its lines, for its pane and for the keys that scroll it alike: every line
at the width, with the settings' prefixes and wrap, the filter's matches marked. Each line's rows are
kept while the layout holds (a frame lays out only what changed: a line that arrived).
*/
export function logLayout(
	settings: Pick<LogSettings, 'wrap' | 'timestamps' | 'json' | 'filter'>,
	query: LogSnapshot['query'],
	subject: LogSubject,
	width: number,
	now: number,
): (shown: ShownLine) => readonly LogRow[] {
	const cache = new WeakMap<ShownLine, readonly LogRow[]>();
	const options = {
		width,
		wrap: settings.wrap,
		timestamps: settings.timestamps,
		json: settings.json,
		merged: subject.kind === 'endpoint',
		bothSources: query.source === undefined,
		spans: filterSpans(settings.filter),
		now,
	};
	return shown => {
		let rows = cache.get(shown);
		if (!rows) {
			rows = layoutLine(shown, options);
			cache.set(shown, rows);
		}

		return rows;
	};
}

/** The lines the settings' filter keeps, with their context. */
export const logSelection = (snapshot: Pick<LogSnapshot, 'lines'>, settings: Pick<LogSettings, 'filter' | 'context'>): LogSelection =>
	selectLogLines(snapshot.lines, settings.filter, settings.context);
