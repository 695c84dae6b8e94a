import {ApiError} from '../api/errors.js';
import type {LogSession} from '../model/log-session.js';

/** No line for this long, once every stream is open, is the end of the backlog: the service writes a backlog at once (the simulator in one write). */
export const backlogQuietMs = 1000;

/**
Settles once the session's backlog is read, for `podtop logs` without -f (the service never ends a
stream by itself): when every stream is open (or stopped) and each gave `tail` lines (the backlog is
exactly that long when the log has as many), or else no line came for `quietMs` since the last one or
since the last stream opened. A stream that cannot connect before it was ever open rejects (a network
error: without -f nothing is waited for longer than the budget's retries).
*/
export async function untilBacklogRead(
	session: LogSession,
	{tail, quietMs = backlogQuietMs}: {readonly tail?: number; readonly quietMs?: number},
): Promise<void> {
	const counts = new Map<string, number>();
	const opened = new Set<string>();
	let counted = 0;
	let quiet: NodeJS.Timeout | undefined;
	let unsubscribe = (): void => undefined;
	try {
		await new Promise<void>((resolve, reject) => {
			const check = () => {
				const {lines, streams} = session.snapshot();
				let moved = false;
				for (const line of lines) {
					if (line.seq > counted) {
						counts.set(line.origin, (counts.get(line.origin) ?? 0) + 1);
						moved = true;
					}
				}

				counted = lines.at(-1)?.seq ?? counted;
				for (const stream of streams) {
					if (stream.state === 'live' && !opened.has(stream.origin)) {
						opened.add(stream.origin);
						moved = true;
					}

					if (stream.state === 'reconnecting' && !opened.has(stream.origin)) {
						reject(new ApiError('network', `${stream.origin}: ${stream.reason ?? 'could not connect'}`));
						return;
					}
				}

				const settled = streams.every(stream => stream.state === 'live' || stream.state === 'ended' || stream.state === 'gone' || stream.state === 'failed');
				if (!settled) {
					return;
				}

				const live = streams.filter(stream => stream.state === 'live');
				if (live.length === 0 || (tail !== undefined && live.every(stream => (counts.get(stream.origin) ?? 0) >= tail))) {
					resolve();
					return;
				}

				if (moved || !quiet) {
					clearTimeout(quiet);
					quiet = setTimeout(resolve, quietMs);
				}
			};

			unsubscribe = session.subscribe(check);
			check();
		});
	} finally {
		clearTimeout(quiet);
		unsubscribe();
	}
}
