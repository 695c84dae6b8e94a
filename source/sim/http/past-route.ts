import type {ServerResponse} from 'node:http';
import type {PastRun} from '../past-run.js';
import {sendError} from './respond.js';

/** Lines are written in pieces of about this many bytes, each waiting for the socket to drain. */
const pieceBytes = 256 * 1024;

/** Until the socket takes more, or the client is gone. */
async function drained(response: ServerResponse): Promise<void> {
	await new Promise<void>(resolve => {
		const done = () => {
			response.off('drain', done);
			response.off('close', done);
			resolve();
		};

		response.on('drain', done);
		response.on('close', done);
	});
}

/** Writes `lines` from `from` on, a piece at a time; the index it got to. */
async function writeLines(response: ServerResponse, lines: readonly string[], from: number): Promise<number> {
	let index = from;
	while (index < lines.length && !response.destroyed) {
		let piece = '';
		while (index < lines.length && piece.length < pieceBytes) {
			piece += `${lines[index++]}\n`;
		}

		if (!response.write(piece)) {
			// eslint-disable-next-line no-await-in-loop -- one piece at a time, as the socket takes them
			await drained(response);
		}
	}

	return index;
}

/**
`GET /__sim/past`: the simulated past's observations as NDJSON, one line each, oldest first. A past
already run is sent with an exact `content-length`; one still running is streamed as it is run
(chunked) and ends when the simulator reaches its present. Either way a cut-off answer shows as one
(a length short, or a chunked stream that never ended).
*/
export async function servePast(past: PastRun | undefined, method: string, response: ServerResponse): Promise<void> {
	if (method !== 'GET') {
		sendError(response, 405, 'Use GET for the simulated past', {allow: 'GET'});
		return;
	}

	if (!past) {
		sendError(response, 404, 'This simulator has no simulated past: start it with --past (e.g. podtop sim --past 6h)');
		return;
	}

	const error = past.error();
	if (error && error !== 'the simulator closed') {
		sendError(response, 500, `The simulated past stopped early: ${error}`);
		return;
	}

	const {lines} = past;
	const headers: Record<string, string> = {'content-type': 'application/x-ndjson'};
	if (past.done()) {
		let length = 0;
		for (const line of lines) {
			length += Buffer.byteLength(line) + 1;
		}

		headers['content-length'] = String(length);
		headers['x-sim-past-lines'] = String(lines.length);
	}

	response.writeHead(200, headers);
	let sent = 0;
	for (;;) {
		const finished = past.done();
		// eslint-disable-next-line no-await-in-loop -- what has been run so far, then wait for more
		sent = await writeLines(response, lines, sent);
		if (finished || response.destroyed) {
			break;
		}

		// eslint-disable-next-line no-await-in-loop -- the run goes on: the next lines, or its end
		await past.changed();
	}

	if (past.error()) {
		// Stopped before the present (the simulator closes): the client must not take it for the whole past.
		response.destroy();
		return;
	}

	response.end();
}
