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

/**
`GET /__sim/past`: the simulated past's observations as NDJSON, one line each, oldest first, once the
simulator has reached its present (the request waits for it). `content-length` is exact, so a client
can tell a cut-off answer from a whole one.
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
	let length = 0;
	for (const line of lines) {
		length += Buffer.byteLength(line) + 1;
	}

	response.writeHead(200, {'content-type': 'application/x-ndjson', 'content-length': String(length), 'x-sim-past-lines': String(lines.length)});
	let piece: string[] = [];
	let pieceLength = 0;
	for (const line of lines) {
		piece.push(line, '\n');
		pieceLength += line.length + 1;
		if (pieceLength >= pieceBytes) {
			if (!response.write(piece.join('')) && !response.destroyed) {
				// eslint-disable-next-line no-await-in-loop -- one piece at a time, as the socket takes them
				await drained(response);
			}

			if (response.destroyed) {
				return;
			}

			piece = [];
			pieceLength = 0;
		}
	}

	response.end(piece.join(''));
}
