import {ApiError, describeError} from '../api/errors.js';
import {isTerminalStatus, type JobRequest, type JobStatusBody} from '../api/job-types.js';
import {sanitizeLine} from '../format/sanitize.js';
import type {ScheduledApi} from '../poll/scheduled-api.js';
import type {HistogramBar} from '../lib/latency-histogram.js';
import {TimerHeap} from '../lib/timer-heap.js';
import {LoadTally, type LoadFigures} from './load-tally.js';

/** What `podtop load` sends: one request, `jobs` times, `ratePerSecond` apart. */
export type LoadPlan = {
	readonly endpointId: string;
	readonly request: JobRequest;
	readonly ratePerSecond: number;
	readonly jobs: number;
	/** Most jobs sent and not yet ended at once (sending waits); undefined: no cap but the budgets'. */
	readonly concurrency: number | undefined;
	/** Through /runsync (and how long the service may hold each answer). */
	readonly sync: {readonly waitMs?: number} | undefined;
	/** Most submits (and status reads) in flight at once: the budgets' concurrency, so nothing piles up in the scheduler. */
	readonly submitsInFlight: number;
	readonly statusInFlight: number;
};

/** Why sending ended. */
export type LoadStop = 'planned' | 'interrupted' | 'refused';

export type LoadSummary = LoadFigures & {
	readonly endpointId: string;
	readonly route: '/run' | '/runsync';
	readonly ratePerSecond: number;
	readonly planned: number;
	readonly startedAt: string;
	readonly elapsedMs: number;
	readonly stopped: LoadStop;
	/** Why it stopped early (the service refused a submit), sanitised. */
	readonly stopReason?: string;
	/** Jobs still unfinished when following was given up (a second Ctrl-C). */
	readonly unfinished: number;
	readonly throughput: {readonly sentPerSecond: number; readonly endedPerSecond: number};
	/** Log-spaced bars of the total time (the delay when no job has both times). */
	readonly histogram: {readonly of: 'total' | 'delay'; readonly bars: readonly HistogramBar[]};
};

type Active = {readonly id: string; due: number; seq: number; index: number; status: string; polls: number; readonly sentAt: number};

const histogramBars = 12;
const minPollMs = 25;
const maxPollMs = 5000;
/** Submits that fail in a row before sending stops (the service is down, or refuses everything). */
const maxFailuresInARow = 10;
const fatalKinds = new Set(['auth', 'not-found', 'invalid']);

/** Moves an estimate towards what was just seen. */
const ewma = (estimate: number, seen: number) => estimate * 0.8 + seen * 0.2;

/**
Sends a plan's jobs at its rate, each once (a failed submit is counted, never re-sent), and follows
each to its end by the cheapest route: /runsync's own answer, else /status reads timed by each
job's state and the times recent jobs took, within the status budget. Memory is flat: only the
jobs not yet ended are kept, and their times go into histograms.
*/
export class LoadRun {
	readonly plan: LoadPlan;
	readonly tally = new LoadTally();
	readonly #active = new Map<string, Active>();
	readonly #due = new TimerHeap<Active>();
	readonly #now: () => number;
	#api: ScheduledApi | undefined;
	#started = 0;
	#startedAt = new Date();
	#next = 0;
	#submitting = 0;
	#reading = 0;
	#seq = 0;
	#failuresInARow = 0;
	#sending = true;
	#following = true;
	#stopped: LoadStop = 'planned';
	#stopReason: string | undefined;
	#fatal: Error | undefined;
	#timer: NodeJS.Timeout | undefined;
	#delayEstimate = 100;
	#executionEstimate = 400;
	#finish: (() => void) | undefined;
	#endedAt: number | undefined;

	constructor(plan: LoadPlan, now: () => number = () => performance.now()) {
		this.plan = plan;
		this.#now = now;
	}

	/** Whether it is still sending. */
	get sending(): boolean {
		return this.#sending;
	}

	/** The error that stopped the run when nothing was accepted (the caller's exit status). */
	get fatal(): Error | undefined {
		return this.#fatal;
	}

	/** The run's clock (ms, monotonic): what its throughput is counted by. */
	now(): number {
		return this.#now();
	}

	elapsedMs(): number {
		return this.#started === 0 ? 0 : (this.#endedAt ?? this.#now()) - this.#started;
	}

	/** Runs the plan to its end (or until stopped); resolves with what it saw. */
	async run(api: ScheduledApi): Promise<LoadSummary> {
		this.#api = api;
		this.#started = this.#now();
		this.#startedAt = new Date();
		const done = new Promise<void>(resolve => {
			this.#finish = resolve;
		});
		this.#wake();
		await done;
		this.#endedAt = this.#now();
		return this.summary();
	}

	/** Ctrl-C: send nothing more; what was sent is still followed. */
	stopSending(): void {
		if (this.#sending) {
			this.#sending = false;
			this.#stopped = 'interrupted';
			this.#wake();
		}
	}

	/** A second Ctrl-C: stop following; what has not ended is counted unfinished. */
	stopFollowing(): void {
		this.#sending = false;
		this.#following = false;
		this.#wake();
	}

	/** The jobs sent and last seen IN_QUEUE. */
	queuedIds(): string[] {
		return [...this.#active.values()].filter(job => job.status === 'IN_QUEUE').map(job => job.id);
	}

	/** Cancels the jobs still queued, one request each within the cancel budget; resolves with how many the service cancelled. */
	async cancelQueued(): Promise<number> {
		const api = this.#api;
		if (!api) {
			return 0;
		}

		const results = await Promise.all(
			this.queuedIds().map(async id => {
				this.tally.requests.cancel++;
				try {
					const body = await api.cancel(this.plan.endpointId, id);
					this.#seen(id, {...body, status: body.status || 'CANCELLED'});
					return 1;
				} catch (error) {
					this.tally.error(`cancel: ${describeError(error)}`);
					return 0;
				}
			}),
		);
		return results.reduce<number>((sum, one) => sum + one, 0);
	}

	summary(): LoadSummary {
		const figures = this.tally.figures();
		const elapsedMs = this.elapsedMs();
		const seconds = Math.max(elapsedMs / 1000, 0.001);
		const {jobs} = figures;
		const ended = jobs.completed + jobs.failed + jobs.cancelled + jobs.timedOut;
		return {
			endpointId: this.plan.endpointId,
			route: this.plan.sync ? '/runsync' : '/run',
			ratePerSecond: this.plan.ratePerSecond,
			planned: this.plan.jobs,
			startedAt: this.#startedAt.toISOString(),
			elapsedMs: Math.round(elapsedMs),
			stopped: this.#stopped,
			...(this.#stopReason ? {stopReason: this.#stopReason} : {}),
			...figures,
			jobs: {...jobs, queued: this.#count('IN_QUEUE'), running: this.#count('IN_PROGRESS')},
			unfinished: this.#active.size,
			throughput: {sentPerSecond: jobs.sent / seconds, endedPerSecond: ended / seconds},
			histogram: {of: this.tally.total.count > 0 || this.tally.delay.count === 0 ? 'total' : 'delay', bars: this.tally.bars(histogramBars)},
		};
	}

	#count(status: string): number {
		let count = 0;
		for (const job of this.#active.values()) {
			count += job.status === status || (status === 'IN_QUEUE' && !isTerminalStatus(job.status) && job.status !== 'IN_PROGRESS') ? 1 : 0;
		}

		return count;
	}

	/** Sends what is due, reads what is due, and sets one timer for the next thing; resolves the run when nothing is left. */
	#wake(): void {
		clearTimeout(this.#timer);
		this.#timer = undefined;
		if (!this.#api || !this.#finish) {
			return;
		}

		const now = this.#now();
		let wakeAt = Number.POSITIVE_INFINITY;
		if (this.#sending && this.#next >= this.plan.jobs) {
			this.#sending = false;
		}

		while (this.#sending && this.#next < this.plan.jobs) {
			const dueAt = this.#started + (this.#next * 1000) / this.plan.ratePerSecond;
			const unfinished = this.#active.size + this.#submitting;
			if (dueAt > now) {
				wakeAt = Math.min(wakeAt, dueAt);
				break;
			}

			if (this.#submitting >= this.plan.submitsInFlight || (this.plan.concurrency !== undefined && unfinished >= this.plan.concurrency)) {
				break;
			}

			this.#next++;
			void this.#submit();
		}

		if (this.#following) {
			while (this.#reading < this.plan.statusInFlight) {
				const top = this.#due.peek();
				if (!top || top.due > now) {
					if (top) {
						wakeAt = Math.min(wakeAt, top.due);
					}

					break;
				}

				this.#due.pop();
				void this.#read(top);
			}
		}

		const idle = this.#submitting === 0 && this.#reading === 0;
		if (!this.#sending && idle && (this.#active.size === 0 || !this.#following)) {
			const finish = this.#finish;
			this.#finish = undefined;
			finish();
			return;
		}

		if (Number.isFinite(wakeAt)) {
			this.#timer = setTimeout(
				() => {
					this.#wake();
				},
				Math.max(0, wakeAt - now),
			);
		}
	}

	async #submit(): Promise<void> {
		const api = this.#api!;
		const {endpointId, request, sync} = this.plan;
		this.#submitting++;
		this.tally.jobs.attempted++;
		this.tally.requests.submit++;
		const started = this.#now();
		try {
			const body = sync ? await api.runSync(endpointId, request, sync.waitMs) : await api.run(endpointId, request);
			const now = this.#now();
			this.tally.submit.record(now - started);
			this.tally.jobs.sent++;
			this.#failuresInARow = 0;
			const job: Active = {id: body.id, due: 0, seq: 0, index: -1, status: 'IN_QUEUE', polls: 0, sentAt: started};
			this.#active.set(body.id, job);
			this.#seen(body.id, body);
		} catch (error) {
			this.tally.jobs.submitErrors++;
			this.tally.error(describeError(error));
			this.#failuresInARow++;
			const fatal = error instanceof ApiError && fatalKinds.has(error.kind);
			if ((fatal || this.#failuresInARow >= maxFailuresInARow) && this.#sending) {
				this.#sending = false;
				this.#stopped = 'refused';
				this.#stopReason = sanitizeLine(describeError(error));
				this.#fatal = error instanceof Error ? error : new Error(String(error));
			}
		} finally {
			this.#submitting--;
			this.#wake();
		}
	}

	async #read(job: Active): Promise<void> {
		this.#reading++;
		this.tally.requests.status++;
		try {
			this.#seen(job.id, await this.#api!.status(this.plan.endpointId, job.id, 'action'));
		} catch (error) {
			if (error instanceof ApiError && error.kind === 'not-found') {
				this.#active.delete(job.id);
				this.tally.jobs.lost++;
				this.tally.error(`sent, then gone before it was seen to end: ${describeError(error)}`);
			} else if (this.#active.has(job.id)) {
				this.tally.error(`status: ${describeError(error)}`);
				this.#schedule(job, Math.min(maxPollMs, 500 * 2 ** Math.min(job.polls, 4)));
			}
		} finally {
			this.#reading--;
			this.#wake();
		}
	}

	/** What the service said of a job: its end counted, or its next read timed by its state. */
	#seen(id: string, body: JobStatusBody): void {
		const job = this.#active.get(id);
		if (!job) {
			return;
		}

		const now = this.#now();
		if (isTerminalStatus(body.status)) {
			this.#due.remove(job);
			this.#active.delete(id);
			this.tally.ended(body, now);
			if (typeof body.delayTime === 'number') {
				this.#delayEstimate = ewma(this.#delayEstimate, body.delayTime);
			}

			if (typeof body.executionTime === 'number') {
				this.#executionEstimate = ewma(this.#executionEstimate, body.executionTime);
			}

			return;
		}

		const first = job.polls === 0 && job.status === 'IN_QUEUE' && body.status === 'IN_QUEUE';
		job.status = body.status;
		job.polls++;
		if (body.status === 'IN_PROGRESS') {
			// Started: its end is about an execution away; later reads back off.
			const elapsed = typeof body.delayTime === 'number' ? now - job.sentAt - body.delayTime : 0;
			this.#schedule(job, Math.max(this.#executionEstimate - elapsed, this.#executionEstimate / 4) * 1.5 ** Math.max(0, job.polls - 2));
		} else {
			const expected = this.#delayEstimate + this.#executionEstimate;
			this.#schedule(job, first ? expected : (expected / 2) * 1.5 ** Math.min(job.polls, 10));
		}
	}

	#schedule(job: Active, inMs: number): void {
		this.#due.remove(job);
		job.due = this.#now() + Math.min(maxPollMs, Math.max(minPollMs, inMs));
		job.seq = this.#seq++;
		this.#due.push(job);
	}
}
