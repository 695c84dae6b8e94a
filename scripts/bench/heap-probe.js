// Preloaded into podtop by `npm run bench:soak` (NODE_OPTIONS=--import): every 2 s it appends
// {time, heapUsed} as a JSON line to $PODTOP_HEAP_PROBE. The soak takes each minute's lowest
// heapUsed (the heap after the last collection) so growth is not a sawtooth between collections.
import {appendFileSync} from 'node:fs';

const file = process.env.PODTOP_HEAP_PROBE;
if (file) {
	const timer = setInterval(() => {
		appendFileSync(file, `${JSON.stringify({time: Date.now(), heapUsed: process.memoryUsage().heapUsed})}\n`);
	}, 2000);
	timer.unref();
}
