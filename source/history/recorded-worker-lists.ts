import type {SqliteDatabase} from './history-file.js';
import type {Written} from './worker-lists.js';

/**
The worker lists the file's newest `workers` events hold (those not closed by one that says the workers
stopped being read): a recorder that starts writes each again, or says it is no longer read, so that a
list written before podtop last stopped does not stand for the moments after (a range of the events' ref
index, once a start).
*/
export function recordedWorkerLists(db: SqliteDatabase): Map<string, Written> {
	const rows = db
		.prepare(
			`SELECT e.subject, e.data FROM events e JOIN (SELECT ref, max(at) AS at FROM events WHERE ref >= 'workers:' AND ref < 'workers;' GROUP BY ref) l ON e.ref = l.ref AND e.at = l.at WHERE e.type = 'workers'`,
		)
		.raw()
		.all() as Array<[string | null, string]>;
	const lists = new Map<string, Written>();
	for (const [endpointId, text] of rows) {
		const data = JSON.parse(text) as {workers?: unknown};
		if (endpointId === null || !Array.isArray(data.workers)) {
			continue;
		}

		const workers = new Map<string, {status: string; restarts: number}>();
		for (const worker of data.workers as Array<{id?: unknown; status?: unknown; restarts?: unknown}>) {
			if (typeof worker.id === 'string' && typeof worker.status === 'string') {
				workers.set(worker.id, {status: worker.status, restarts: typeof worker.restarts === 'number' ? worker.restarts : 0});
			}
		}

		lists.set(endpointId, {key: '', workers});
	}

	return lists;
}
