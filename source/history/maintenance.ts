import {setImmediate as yieldToEvents} from 'node:timers/promises';
import {pruneBills} from './bill-ledger.js';
import {pruneKeptLogs} from './kept-logs.js';
import {createBulkInsert} from './bulk-insert.js';
import {seriesChangedSql} from './write-batch.js';
import {addToBucket, type Bucket, bucketTexts, emptyBucket} from './bucket.js';
import type {SqliteDatabase} from './history-file.js';
import {minuteRollupSql, minuteSliceSeries} from './minute-rollup.js';
import {defaultRetention, type Retention} from './retention.js';

type Values = Array<number | null>;

/** A minute is rolled up once it is this far behind: a poll in flight at its end lands first. */
const graceMs = 5000;
const minuteMs = 60_000;
const hourMs = 3_600_000;
/** How much of a tier one delete takes at most, so no transaction holds the file long. */
const pruneSliceMs = {raw: minuteMs, minute: hourMs, hour: 24 * hourMs} as const;
/** How many rollup rows one transaction writes at most (an hour of 10,000 pods is written in six). */
const writeSliceRows = 2000;

export type Maintenance = {
	/** Does every rollup and deletion that is due, a slice at a time. */
	readonly run: () => Promise<void>;
	readonly start: () => void;
	readonly stop: () => void;
};

type Options = {
	readonly db: SqliteDatabase;
	readonly retention?: Retention;
	readonly now?: () => number;
	/** How often it looks for work. */
	readonly everyMs?: number;
	/** One line when a round fails (the disk is full, say), not repeated while it fails the same way; it tries again next round. */
	readonly onError?: (error: unknown) => void;
};

/**
Keeps the tiers: rolls closed minutes of raw samples into 1-minute rollups and closed hours of
those into 1-hour rollups (min, mean, max, last per field), then deletes what is past each tier's
retention. It works in slices and yields between them, so polls and frames are never held up; a
crash loses nothing, since each slice commits with the mark of how far it got.
*/
export function createMaintenance({db, retention = defaultRetention, now = Date.now, everyMs = 20_000, onError}: Options): Maintenance {
	const statements = {
		meta: db.prepare(`SELECT value FROM meta WHERE key = ?`).raw(),
		setMeta: db.prepare(`INSERT INTO meta (key, value) VALUES (?, ?) ON CONFLICT (key) DO UPDATE SET value = excluded.value`),
		firstPollFrom: db.prepare(`SELECT min(at) FROM polls WHERE at >= ?`).raw(),
		lastPoll: db.prepare(`SELECT max(at) FROM polls`).raw(),
		minuteSids: db.prepare(`SELECT min(sid), max(sid) FROM raw WHERE at >= ?1 AND at < ?1 + ${minuteMs}`).raw(),
		rollRaw: db.prepare(minuteRollupSql),
		firstMinuteFrom: db.prepare(`SELECT min(at) FROM minute WHERE at >= ?`).raw(),
		minuteAt: db
			.prepare(
				`SELECT group_concat(sid || ',' || n || ',' || json_quote(state) || ',' || vmin || ',' || vmean || ',' || vmax || ',' || vlast, ',') FROM minute WHERE at = ?`,
			)
			.raw(),
		oldest: {
			raw: db.prepare(`SELECT min(at) FROM raw`).raw(),
			minute: db.prepare(`SELECT min(at) FROM minute`).raw(),
			hour: db.prepare(`SELECT min(at) FROM hour`).raw(),
		},
	};
	const columns = ['sid', 'n', 'state', 'vmin', 'vmean', 'vmax', 'vlast'];
	const insertHours = createBulkInsert(db, 'hour', columns, ['at']);
	let running: Promise<void> | undefined;
	let timer: NodeJS.Timeout | undefined;
	let stopped = false;
	/** The failure last said, until a round succeeds. */
	let reported: string | undefined;
	const meta = (key: string): number | undefined => {
		const row = statements.meta.get(key) as [string] | undefined;
		return row ? Number(row[0]) : undefined;
	};

	/** Runs `write` in one transaction of its own, rolled back whole if it throws. */
	const inTransaction = (write: () => void) => {
		db.exec('BEGIN IMMEDIATE');
		try {
			write();
			db.exec('COMMIT');
		} catch (error) {
			db.exec('ROLLBACK');
			throw error;
		}
	};

	const single = (statement: {get: (...parameters: unknown[]) => unknown}, ...parameters: unknown[]) =>
		(statement.get(...parameters) as [number | null] | undefined)?.[0] ?? undefined;

	/**
	Writes an hour's rollup a slice at a time, each slice its own transaction and a yield between them
	(10,000 pods: 11,000 rows an hour), the mark with the last one. Cut short by a crash, the
	bucket is rolled again whole (the rows are replaced), so nothing is lost or counted twice.
	*/
	const writeHour = async (hour: number, buckets: Map<number, Bucket>): Promise<void> => {
		const rows = [...buckets].map(([sid, bucket]) => {
			const {min, mean, max, last} = bucketTexts(bucket);
			return [sid, bucket.count, bucket.state ?? null, min, mean, max, last];
		});
		for (let start = 0; start === 0 || start < rows.length; start += writeSliceRows) {
			if (start > 0) {
				// eslint-disable-next-line no-await-in-loop -- one slice after another
				await yieldToEvents();
			}

			const slice = rows.slice(start, start + writeSliceRows);
			inTransaction(() => {
				if (slice.length > 0) {
					insertHours(slice.flat(), [hour]);
				}

				if (start + writeSliceRows >= rows.length) {
					statements.setMeta.run('rolled_hour', String(hour));
				}
			});
		}
	};

	const bucketOf = (buckets: Map<number, Bucket>, sid: number) => {
		let bucket = buckets.get(sid);
		if (!bucket) {
			bucket = emptyBucket();
			buckets.set(sid, bucket);
		}

		return bucket;
	};

	/** The flat list one of the statements above gives (its text wrapped in brackets), empty when there are no rows. */
	const flat = (statement: {get: (...parameters: unknown[]) => unknown}, at: number): unknown[] => {
		const text = (statement.get(at) as [string | null])[0];
		return text ? (JSON.parse(`[${text}]`) as unknown[]) : [];
	};

	/** Rolls the next closed minute that has samples, a slice of series at a time; false when there is none. */
	const rollMinute = async (): Promise<boolean> => {
		const done = meta('rolled_minute');
		const next = single(statements.firstPollFrom, done === undefined ? 0 : done + minuteMs);
		if (next === undefined) {
			return false;
		}

		const minute = Math.floor(next / minuteMs) * minuteMs;
		// Over by the clock, and the recorder has written past it: a write into a minute already rolled
		// would never be rolled (and pruned unrolled), which a writer behind the clock (the demo's
		// simulated past) would otherwise do.
		const lastPoll = single(statements.lastPoll) ?? minute;
		if (minute + minuteMs + graceMs > now() || lastPoll < minute + minuteMs) {
			return false;
		}

		const [low, high] = statements.minuteSids.get(minute) as [number | null, number | null];
		const first = low ?? 0;
		for (let from = first; from <= (high ?? 0); from += minuteSliceSeries) {
			if (from > first) {
				// eslint-disable-next-line no-await-in-loop -- one slice after another, so no poll waits for the whole minute
				await yieldToEvents();
				if (stopped) {
					return false;
				}
			}

			inTransaction(() => {
				if (low !== null) {
					statements.rollRaw.run(minute, from, from + minuteSliceSeries);
				}

				if (from + minuteSliceSeries > (high ?? 0)) {
					statements.setMeta.run('rolled_minute', String(minute));
				}
			});
		}

		return true;
	};

	/** Rolls the next hour whose minutes are all rolled; false when there is none. Yields between its minutes. */
	const rollHour = async (): Promise<boolean> => {
		const minutesDone = meta('rolled_minute');
		if (minutesDone === undefined) {
			return false;
		}

		const done = meta('rolled_hour');
		const next = single(statements.firstMinuteFrom, done === undefined ? 0 : done + hourMs);
		if (next === undefined) {
			return false;
		}

		const hour = Math.floor(next / hourMs) * hourMs;
		if (hour + hourMs > minutesDone + minuteMs || hour + hourMs + graceMs > now()) {
			return false;
		}

		const buckets = new Map<number, Bucket>();
		for (let minute = hour; minute < hour + hourMs; minute += minuteMs) {
			const rows = flat(statements.minuteAt, minute);
			for (let index = 0; index < rows.length; index += 7) {
				addToBucket(bucketOf(buckets, rows[index] as number), minute, rows[index + 1] as number, (rows[index + 2] as string | null) ?? undefined, {
					min: rows[index + 3] as Values,
					mean: rows[index + 4] as Values,
					max: rows[index + 5] as Values,
					last: rows[index + 6] as Values,
				});
			}

			// eslint-disable-next-line no-await-in-loop -- one minute at a time
			await yieldToEvents();
			if (stopped) {
				return false;
			}
		}

		await writeHour(hour, buckets);
		return true;
	};

	/** Deletes one slice of what is past a tier's retention (never raw samples not yet rolled up); false when nothing is. */
	const prune = (tier: 'raw' | 'minute' | 'hour'): boolean => {
		const guard = tier === 'raw' ? meta('rolled_minute') : tier === 'minute' ? meta('rolled_hour') : Number.POSITIVE_INFINITY;
		const cutoff = Math.min(now() - retention[tier], guard ?? Number.NEGATIVE_INFINITY);
		const oldest = single(statements.oldest[tier]);
		if (oldest === undefined || oldest >= cutoff) {
			return false;
		}

		const until = Math.min(cutoff, oldest + pruneSliceMs[tier]);
		inTransaction(() => {
			db.prepare(`DELETE FROM ${tier} WHERE at < ?`).run(until);
			if (tier === 'raw') {
				db.prepare(`DELETE FROM polls WHERE at < ?`).run(until);
			}

			if (tier === 'hour') {
				// The timeline and the records are kept as long as anything is; a thing deleted before that goes too.
				db.prepare(`DELETE FROM events WHERE at < ?`).run(until);
				db.prepare(`DELETE FROM records WHERE at < ? AND (sid, at) NOT IN (SELECT sid, max(at) FROM records GROUP BY sid)`).run(until);
				db.prepare(`DELETE FROM records WHERE sid IN (SELECT id FROM series WHERE deleted_at < ?)`).run(until);
				if (db.prepare(`DELETE FROM series WHERE deleted_at < ?`).run(until).changes > 0) {
					db.prepare(seriesChangedSql).run();
				}
			}
		});

		return true;
	};

	/** The bills past retention (hourly ones as long as minute rollups, the rest as hour rollups) and gone workers' lines kept as long as the events: one step, the tables are small. */
	const pruneSmallTables = (): boolean => {
		inTransaction(() => {
			pruneBills(db, now(), retention.minute, retention.hour);
			pruneKeptLogs(db, now() - retention.hour);
		});
		return false;
	};

	const steps: Array<() => boolean | Promise<boolean>> = [
		rollMinute,
		rollHour,
		() => prune('raw'),
		() => prune('minute'),
		() => prune('hour'),
		pruneSmallTables,
	];

	/** Runs each step until it has nothing left, yielding to the event loop between slices. */
	const drain = async (step: () => boolean | Promise<boolean>): Promise<void> => {
		if (!stopped && (await step())) {
			await yieldToEvents();
			return drain(step);
		}
	};

	const run = async () => {
		running ??= (async () => {
			try {
				for (const step of steps) {
					// eslint-disable-next-line no-await-in-loop -- one step after another, in order
					await drain(step);
				}

				if (!stopped) {
					// Space freed by deletions goes back to the file system, a little each round.
					db.exec('PRAGMA incremental_vacuum(2048)');
					// The polls' WAL into the file, here rather than in a poll's commit (write-batch.ts); readers are not waited for.
					db.exec('PRAGMA wal_checkpoint(PASSIVE)');
				}

				reported = undefined;
			} catch (error) {
				// Said once (a full disk fails every round until space returns), again only when it fails otherwise.
				const text = error instanceof Error ? error.message : String(error);
				if (text !== reported) {
					reported = text;
					onError?.(error);
				}
			} finally {
				running = undefined;
			}
		})();
		return running;
	};

	const schedule = () => {
		timer = setTimeout(() => {
			void run().then(() => {
				if (!stopped) {
					schedule();
				}
			});
		}, everyMs);
		timer.unref();
	};

	return {
		run,
		start() {
			stopped = false;
			schedule();
		},
		stop() {
			stopped = true;
			clearTimeout(timer);
		},
	};
}
