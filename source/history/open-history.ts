import {rmSync} from 'node:fs';
import {tmpdir} from 'node:os';
import {join} from 'node:path';
import {createStore, type StoreApi} from 'zustand/vanilla';
import type {SpendBucketSize} from '../model/spend.js';
import type {PodtopStore} from '../store/create-store.js';
import {auditEvent, readAuditSince, type AuditPosition} from './audit-tail.js';
import {recordPast, type Backfill} from './backfill.js';
import {createBillLedger, type BillLedger, type BillRoute, type StoredBill} from './bill-ledger.js';
import type {EventRow} from './event-rows.js';
import {
	defaultHistoryDirectory,
	historyFileName,
	HistoryUnavailableError,
	isCorruption,
	isDiskFull,
	moveAside,
	openHistoryForReading,
	type SqliteDatabase,
	openHistoryForWriting,
	takeWriterLock,
	type WriterLock,
} from './history-file.js';
import type {HistoryReader, RecordingState} from './history-types.js';
import {keptLogsIn, type KeptLogs} from './kept-logs.js';
import {createMaintenance, type Maintenance} from './maintenance.js';
import {createPrometheusReader} from './prometheus-reader.js';
import {createRecorder, type Recorder} from './recorder.js';
import {defaultRetention, type Retention} from './retention.js';
import {createSqliteReader} from './sqlite-reader.js';

export type {Backfill, BackfillTarget} from './backfill.js';

/** How history is kept, from the command line (`--history-dir`, `--no-history`, `--retention`). */
export type HistoryOptions = {
	readonly disabled?: boolean;
	readonly directory?: string;
	readonly retention?: Retention;
	/** Read history from a Prometheus at this URL instead (`--history-source`): nothing is recorded here. */
	readonly prometheusUrl?: string;
	/** DEMO: how much of its past the built-in simulator runs for history to hold (`--demo-past`; 2 h when absent, 0 for none). */
	readonly demoPastMs?: number;
};

/** The account's history as a process sees it: where to read ranges from, and what its recorder is doing. */
export type History = {
	/** Undefined when there is none to read (`--no-history`, a folder that cannot be used, nothing recorded yet). */
	readonly reader: () => HistoryReader | undefined;
	readonly status: Pick<StoreApi<RecordingState>, 'getState' | 'subscribe'>;
	/** Writes what changed now (tests and the demo's backfill). */
	readonly flush: (at?: number) => void;
	/** Rolls up and prunes what is due now (the demo's backfill, tests). */
	readonly maintain: () => Promise<void>;
	/** Settles once what there is to read is there (in DEMO, once the simulated past is recorded). */
	readonly ready: Promise<void>;
	/**
	Stand by while an agent records the account (the one recorder, as it is the one poller): stop
	recording and let go of the file, read it only; false: record again as soon as the file is free.
	*/
	readonly standBy: (on: boolean) => void;
	/** Events for the timeline this process did not see itself (what attached clients forward to the agent). */
	readonly record: (events: readonly EventRow[]) => void;
	/** Where the agent keeps gone workers' last lines: the file it records into; undefined while this process does not record. */
	readonly keptLogs: () => KeptLogs | undefined;
	/**
	The bills kept in the file: writable when this process records, or records nothing and the file is free (`podtop spend`
	holds it while it runs); read only while another podtop records; undefined without a file (`--no-history`, Prometheus).
	*/
	readonly bills: () => BillLedger | undefined;
	readonly close: () => Promise<void>;
};

type Service = {readonly apiUrl: string; readonly graphqlUrl: string; readonly apiKey: string};

type Options = {
	readonly store: PodtopStore;
	readonly service: Service;
	readonly mode: 'demo' | 'live';
	readonly options: HistoryOptions;
	/** Record what the store sees (the agent, a dashboard or `watch` polling): false only reads. */
	readonly record: boolean;
	/** The user's audit log: every podtop's writes of this account are read from it into the timeline. */
	readonly auditPath?: string;
	/** The account's id in audit lines. */
	readonly account?: string;
	/** One line for the user (the dashboard's footer, the agent's log): recording paused, read only, moved aside. */
	readonly log?: (line: string) => void;
	readonly now?: () => number;
	/** How often a reader tries to become the recorder, and the audit log is read. */
	readonly retryMs?: number;
	/**
	Records a past first (the demo's simulated hours), through a store and recorder of its own; then the
	file is rolled up, the live recorder starts (the live store as it is then, a keyframe) and `ready` settles.
	*/
	readonly backfill?: Backfill;
	/** Start standing by (`standBy`): the engine first looks for an agent that records the account. */
	readonly standBy?: boolean;
};

/** Events kept for the timeline while another podtop holds the file (the agent takes it within seconds). */
const maxWaitingEvents = 1000;
/** Files found damaged and moved aside in one process before it stops trying (a disk that damages every file it is given). */
const maxDamagedFiles = 3;

/**
The demo's own folder, `$TMPDIR/podtop-demo-<uid>`: made private (0700) by podtop, never `$TMPDIR` itself (whose
mode is not podtop's to change). One there already is used only when it is this user's and private.
*/
export const demoHistoryDirectory = () => join(tmpdir(), `podtop-demo-${process.getuid?.() ?? 'user'}`);

/** The demo's history is its own simulated past: a file of this process only (in `--history-dir` when given), removed when it ends. */
const demoFile = (directory = demoHistoryDirectory()) => join(directory, `podtop-demo-history-${process.pid}-${Date.now().toString(36)}.sqlite`);

/**
Opens the account's history: the one recorder when this process may record and no other podtop
does (the file's writer lock), otherwise a reader of the same file, trying again to record every
few seconds (a dashboard takes over when the agent that recorded stops). Any failure leaves
podtop running without history, said once.
*/
export function openHistory({
	store,
	service,
	mode,
	options,
	record,
	auditPath,
	account,
	log = () => undefined,
	now = Date.now,
	retryMs = 5000,
	backfill,
	standBy: startStandingBy = false,
}: Options): History {
	const status = createStore<RecordingState>()(() => ({state: 'off'}));
	const setStatus = (state: RecordingState, line?: string) => {
		status.setState(state, true);
		if (line) {
			log(line);
		}
	};

	if (options.prometheusUrl !== undefined) {
		const remote = createPrometheusReader({url: options.prometheusUrl});
		setStatus({state: 'remote', source: 'prometheus'});
		return {
			reader: () => remote,
			status,
			flush() {},
			maintain: async () => undefined,
			ready: Promise.resolve(),
			standBy() {},
			record() {},
			keptLogs: () => undefined,
			bills: () => undefined,
			close: async () => remote.close(),
		};
	}

	if (options.disabled) {
		setStatus({state: 'off', reason: '--no-history'});
		return {
			reader: () => undefined,
			status,
			flush() {},
			maintain: async () => undefined,
			ready: Promise.resolve(),
			standBy() {},
			record() {},
			keptLogs: () => undefined,
			bills: () => undefined,
			close: async () => undefined,
		};
	}

	const file = mode === 'demo' ? demoFile(options.directory) : join(options.directory ?? defaultHistoryDirectory(), historyFileName(service));
	const retention = options.retention ?? defaultRetention;
	let reader: HistoryReader | undefined;
	let recorder: Recorder | undefined;
	let maintenance: Maintenance | undefined;
	let lock: WriterLock | undefined;
	let timer: NodeJS.Timeout | undefined;
	let auditPosition: AuditPosition | undefined;
	let closed = false;
	/** The backfill under way or done (it runs once, when this process first records). */
	let backfilling: Promise<void> | undefined;
	const stopping = new AbortController();

	/** The database being recorded into, and how many files were found damaged (and moved aside) so far. */
	let writing: SqliteDatabase | undefined;
	let damagedFiles = 0;
	/** The kept lines of the file being recorded into (made once per file). */
	let kept: {readonly db: SqliteDatabase; readonly logs: KeptLogs} | undefined;

	/**
	The file was found damaged inside its tables (a write, the upkeep or the recorder's first read failed on it): let go
	of it, move it aside as `<name>.corrupt-<time>` and record into a new one, as is done for a damaged header.
	*/
	const setAsideDamaged = (db: SqliteDatabase) => {
		if (closed || db !== writing) {
			return;
		}

		writing = undefined;
		maintenance?.stop();
		recorder?.stop();
		void reader?.close();
		[maintenance, recorder, reader] = [undefined, undefined, undefined];
		damagedFiles++;
		log(`${file} was damaged: moved to ${moveAside(file, now())}, a new one started`);
		lock?.release();
		lock = undefined;
		if (damagedFiles >= maxDamagedFiles) {
			setStatus(
				{state: 'off', reason: `history off: ${damagedFiles} history files were found damaged; check the disk (--history-dir elsewhere, or --no-history)`},
				`history off: ${damagedFiles} history files were found damaged since podtop started; check the disk under ${file}`,
			);
			return;
		}

		try {
			if (!becomeRecorder()) {
				readOnly('another podtop records this account');
			}
		} catch (error) {
			setStatus({state: 'off', reason: error instanceof Error ? error.message : String(error)}, error instanceof Error ? error.message : String(error));
		}
	};

	/** Called from inside a failed write or upkeep round: set aside once that has returned. */
	const damaged = (db: SqliteDatabase) => {
		queueMicrotask(() => {
			setAsideDamaged(db);
		});
	};

	/** Records the live store from now on: the recorder, and the file's upkeep. */
	const startLive = (db: SqliteDatabase) => {
		recorder = createRecorder({
			store,
			db,
			file,
			now,
			onState(state, line) {
				setStatus(state, line);
			},
			onDamaged() {
				damaged(db);
			},
		});
		maintenance?.start();
		recorder.flush();
	};

	/** The past first, through a store and recorder of its own; then the rollups, then live recording. */
	const runBackfill = async (db: SqliteDatabase, fill: Backfill) => {
		try {
			await recordPast({fill, store, db, file, now, log, signal: stopping.signal});
		} catch (error) {
			if (!closed) {
				log(`the simulated past was not recorded (${error instanceof Error ? error.message : String(error)}); history starts now`);
			}
		}

		if (closed) {
			return;
		}

		await maintenance?.run();
		if (!closed) {
			startLive(db);
		}
	};

	let standingBy = startStandingBy;
	let waiting: EventRow[] = [];

	const becomeRecorder = (): boolean => {
		lock = takeWriterLock(file);
		if (!lock) {
			return false;
		}

		let opened: ReturnType<typeof openHistoryForWriting>;
		try {
			opened = openHistoryForWriting(file, now());
		} catch (error) {
			// Not the recorder after all: the next try takes the lock again.
			lock.release();
			lock = undefined;
			throw error;
		}

		for (const warning of opened.warnings) {
			log(warning);
		}

		void reader?.close();
		reader = createSqliteReader({db: opened.db, file, retention});
		writing = opened.db;
		try {
			maintenance = createMaintenance({
				db: opened.db,
				retention,
				now,
				onError(error) {
					// A full disk is the recorder's to say (it writes every poll, and says when it resumes): one warning, not two.
					if (isDiskFull(error)) {
						return;
					}

					if (isCorruption(error)) {
						damaged(opened.db);
						return;
					}

					log(`history upkeep failed (${error instanceof Error ? error.message : String(error)}); tried again shortly`);
				},
			});
			const mark = (opened.db.prepare(`SELECT value FROM meta WHERE key = 'audit_position'`).raw().get() as [string] | undefined)?.[0];
			auditPosition = mark ? (JSON.parse(mark) as AuditPosition) : undefined;
			setStatus({state: 'recording', file});
			if (backfill && !backfilling) {
				backfilling = runBackfill(opened.db, backfill);
			} else {
				startLive(opened.db);
			}
		} catch (error) {
			if (!isCorruption(error)) {
				throw error;
			}

			// The header was sound but a table is not (the recorder reads the last poll and the series on opening).
			setAsideDamaged(opened.db);
			return lock !== undefined;
		}

		return true;
	};

	const readAudit = () => {
		if (!recorder || !auditPath || !account) {
			return;
		}

		const read = readAuditSince(auditPath, auditPosition);
		if (!read || (read.lines.length === 0 && read.position.offset === auditPosition?.offset)) {
			return;
		}

		auditPosition = read.position;
		const events = read.lines.flatMap(line => auditEvent(line, account) ?? []);
		recorder.record(events, new Map([['audit_position', JSON.stringify(read.position)]]));
	};

	const tick = () => {
		try {
			if (!lock && record && !closed && !standingBy) {
				becomeRecorder();
			}

			readAudit();
			if (recorder && waiting.length > 0) {
				recorder.record(waiting);
				waiting = [];
			}
		} catch (error) {
			log(error instanceof Error ? error.message : String(error));
		}

		if (!closed) {
			timer = setTimeout(tick, retryMs);
			timer.unref();
		}
	};

	/** A process that only reads opens the file when something asks for a range, not before. */
	let readerOpened = false;
	const openReader = () => {
		readerOpened = true;
		try {
			const db = openHistoryForReading(file);
			if (db) {
				reader = createSqliteReader({db, file, retention});
			}
		} catch (error) {
			log(error instanceof Error ? error.message : String(error));
		}
	};

	const readOnly = (reason: string, line?: string) => {
		if (!reader) {
			openReader();
		}

		setStatus({state: 'reading', file, reason}, line);
	};

	try {
		if (record && standingBy) {
			setStatus({state: 'off', reason: 'looking for an agent that records this account'});
		} else if (record && becomeRecorder()) {
			readerOpened = true;
		} else if (record) {
			readOnly('another podtop records this account', `another podtop (the agent?) records this account's history; this one reads ${file}`);
		} else {
			setStatus({state: 'off', reason: 'this command reads history only'});
		}

		if (record) {
			timer = setTimeout(tick, retryMs);
			timer.unref();
		}
	} catch (error) {
		lock?.release();
		lock = undefined;
		const reason = error instanceof HistoryUnavailableError ? error.message : `history off: ${String(error)}`;
		setStatus({state: 'off', reason}, reason);
	}

	/**
	A process that records nothing (`podtop spend`, a filtered view) stores the bills it read by taking the file's writer
	lock for the write alone: it never keeps the file from a recorder. While another podtop records, it reads only.
	*/
	const storeBriefly = (route: BillRoute, size: SpendBucketSize, bills: readonly StoredBill[]) => {
		const held = takeWriterLock(file);
		if (!held) {
			return;
		}

		try {
			const opened = openHistoryForWriting(file, now());
			try {
				createBillLedger(opened.db, true).store(route, size, bills);
			} finally {
				opened.db.close();
			}
		} finally {
			held.release();
		}
	};

	/** The ledger over the file this process writes, or over a reading connection of its own. */
	let ledger: {readonly db: SqliteDatabase; readonly ledger: BillLedger; readonly own: boolean} | undefined;
	const openBills = (): BillLedger | undefined => {
		if (ledger && (ledger.own ? writing !== undefined : ledger.db !== writing)) {
			// This process became the recorder, or stopped being it: the ledger follows the file's writer.
			if (ledger.own) {
				ledger.db.close();
			}

			ledger = undefined;
		}

		if (writing) {
			ledger ??= {db: writing, ledger: createBillLedger(writing, true), own: false};
			return ledger.ledger;
		}

		if (ledger) {
			return ledger.ledger;
		}

		try {
			let db = openHistoryForReading(file);
			if (!db && !record) {
				// No file yet: one is started (private, as a recorder would) for the bills to go in.
				storeBriefly('account', 'day', []);
				db = openHistoryForReading(file);
			}

			if (db) {
				const reading = createBillLedger(db, false);
				ledger = {db, ledger: record ? reading : {...reading, writable: true, store: storeBriefly}, own: true};
			}
		} catch (error) {
			log(error instanceof Error ? error.message : String(error));
		}

		return ledger?.ledger;
	};

	return {
		bills: () => (closed ? undefined : openBills()),
		reader() {
			if (!readerOpened && !closed) {
				openReader();
			}

			return reader;
		},
		status,
		standBy(on) {
			const was = standingBy;
			standingBy = on;
			if (!record || closed) {
				return;
			}

			try {
				if (on && recorder) {
					// What is due is written, then the file is the agent's: read it from now on.
					readAudit();
					maintenance?.stop();
					recorder.stop();
					void reader?.close();
					lock?.release();
					[maintenance, recorder, reader, lock] = [undefined, undefined, undefined, undefined];
					writing = undefined;
					log('the agent records this account: this podtop stopped recording its own and reads the history');
				}

				if (on) {
					// Opened when a range is first asked for: a member of another user's agent never needs this user's file.
					readerOpened = reader !== undefined;
					setStatus({state: 'reading', file, reason: 'the agent records this account'});
				} else if (was && becomeRecorder()) {
					readerOpened = true;
				} else if (was) {
					readOnly('another podtop records this account');
				}
			} catch (error) {
				log(error instanceof Error ? error.message : String(error));
			}
		},
		record(events) {
			if (recorder) {
				recorder.record(events);
			} else {
				waiting = [...waiting, ...events].slice(-maxWaitingEvents);
			}
		},
		keptLogs() {
			if (!writing || closed) {
				return undefined;
			}

			if (kept?.db !== writing) {
				kept = {db: writing, logs: keptLogsIn(writing, {writable: true})};
			}

			return kept.logs;
		},
		flush(at) {
			recorder?.flush(at);
		},
		async maintain() {
			await maintenance?.run();
		},
		// Settles, never fails: a backfill that fails says so and leaves history to start now.
		ready: backfilling?.catch(() => undefined) ?? Promise.resolve(),
		async close() {
			closed = true;
			stopping.abort();
			clearTimeout(timer);
			await backfilling?.catch(() => undefined);
			maintenance?.stop();
			readAudit();
			recorder?.stop();
			await reader?.close();
			if (ledger?.own) {
				ledger.db.close();
			}

			ledger = undefined;

			lock?.release();
			if (mode === 'demo') {
				for (const suffix of ['', '-wal', '-shm', '.lock']) {
					rmSync(`${file}${suffix}`, {force: true});
				}
			}
		},
	};
}
