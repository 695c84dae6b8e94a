import type {LogStreamState} from '../model/log-line.js';
import type {LogSnapshot, StreamStatus} from '../model/log-session.js';
import {formatDuration} from '../format/duration.js';
import {sanitizeLine} from '../format/sanitize.js';

/** A count with its thousands grouped: `1,234`. */
export const grouped = (value: number) => value.toLocaleString('en-US');

/** How bad a state is, worst last: the state line takes the worst stream's tone. */
const severity: Readonly<Record<LogStreamState, number>> = {live: 0, connecting: 1, ended: 2, reconnecting: 3, gone: 4, failed: 5};

export type StateTone = 'good' | 'muted' | 'warn' | 'bad';

const toneOf: Readonly<Record<LogStreamState, StateTone>> = {
	live: 'good',
	connecting: 'muted',
	ended: 'muted',
	reconnecting: 'warn',
	gone: 'bad',
	failed: 'bad',
};

/** One stream's state in words: `reconnecting in 4s (stalled)`, `gone (404: the worker is gone)`, `live`. */
export function streamStateText(stream: StreamStatus, now: number): string {
	const when =
		stream.state === 'reconnecting' && stream.retryAt !== undefined ? ` in ${formatDuration(Math.max(0, Math.ceil((stream.retryAt - now) / 1000)))}` : '';
	const reason = stream.reason ? ` (${sanitizeLine(stream.reason)})` : '';
	return `${stream.state}${when}${reason}`;
}

/**
The streams' state as the log view's state line says it: one stream's in full; a merged view's as
counts (`5 workers: 3 live · 1 reconnecting · 1 gone`), then each troubled worker's by its short id.
*/
export function sessionStateText(
	streams: readonly StreamStatus[],
	merged: boolean,
	now: number,
	short: (origin: string) => string,
): {text: string; tone: StateTone} {
	if (streams.length === 0) {
		return merged ? {text: 'no worker to follow yet', tone: 'muted'} : {text: 'connecting', tone: 'muted'};
	}

	const worst = streams.reduce<LogStreamState>((bad, stream) => (severity[stream.state] > severity[bad] ? stream.state : bad), 'live');
	if (!merged && streams.length === 1) {
		return {text: streamStateText(streams[0]!, now), tone: toneOf[worst]};
	}

	const counts = new Map<LogStreamState, number>();
	for (const stream of streams) {
		counts.set(stream.state, (counts.get(stream.state) ?? 0) + 1);
	}

	const states = [...counts.entries()].sort(([a], [b]) => severity[a] - severity[b]).map(([state, count]) => `${count} ${state}`);
	const troubled = streams
		.filter(stream => severity[stream.state] >= severity.reconnecting)
		.map(stream => `${short(stream.origin).trim()} ${streamStateText(stream, now)}`);
	return {text: [`${streams.length} ${streams.length === 1 ? 'worker' : 'workers'}: ${states.join(' · ')}`, ...troubled].join(' · '), tone: toneOf[worst]};
}

/** The buffer in words: `buffer 1,234/5,000 lines · 56 dropped`. */
export function bufferText(snapshot: Pick<LogSnapshot, 'lines' | 'capacity' | 'dropped'>): string {
	return `buffer ${grouped(snapshot.lines.length)}/${grouped(snapshot.capacity)} lines${snapshot.dropped > 0 ? ` · ${grouped(snapshot.dropped)} dropped` : ''}`;
}
