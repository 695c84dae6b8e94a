import type {JobStatusBody} from '../api/job-types.js';
import {sanitizeLine} from '../format/sanitize.js';
import {coldStartRule, createColdStartJudge} from '../lib/cold-start.js';
import {LatencyHistogram, type HistogramBar, type LatencySummary} from '../lib/latency-histogram.js';

/** Distinct error messages kept; the rest are counted under one line. */
const maxErrorGroups = 20;
const maxMessageLength = 200;
const otherErrors = '(other errors)';

export type LoadJobCounts = {
	/** Submits tried: each one request to /run or /runsync, never sent again. */
	readonly attempted: number;
	/** Accepted by the service (it answered with an id). */
	readonly sent: number;
	/** Submits the service refused or that failed on the way (counted, never re-sent). */
	readonly submitErrors: number;
	readonly queued: number;
	readonly running: number;
	readonly completed: number;
	readonly failed: number;
	readonly cancelled: number;
	readonly timedOut: number;
	/** Sent, then gone from the service (404: expired) before it was seen to end. */
	readonly lost: number;
};

export type LoadRequests = {readonly submit: number; readonly status: number; readonly cancel: number};

/** What a load run saw: counts, latencies and errors, all in bounded memory. */
export type LoadFigures = {
	readonly jobs: LoadJobCounts;
	readonly requests: LoadRequests;
	/** Queue delay, execution and their sum, as the service measured them (delayTime, executionTime). */
	readonly delay: LatencySummary;
	readonly execution: LatencySummary;
	readonly total: LatencySummary;
	/** From each submit's call to its answer: the wait for a budget slot and the round trip. */
	readonly submit: LatencySummary;
	readonly coldStarts: {readonly count: number; readonly rule: string; readonly warmMedianMs: number | undefined};
	readonly errors: ReadonlyArray<{readonly message: string; readonly count: number}>;
};

type Mutable<T> = {-readonly [K in keyof T]: T[K]};

/** The counters, histograms and error groups of one run: what its live view and its summary read. */
export class LoadTally {
	readonly jobs: Mutable<LoadJobCounts> = {
		attempted: 0,
		sent: 0,
		submitErrors: 0,
		queued: 0,
		running: 0,
		completed: 0,
		failed: 0,
		cancelled: 0,
		timedOut: 0,
		lost: 0,
	};

	readonly requests: Mutable<LoadRequests> = {submit: 0, status: 0, cancel: 0};
	readonly delay = new LatencyHistogram();
	readonly execution = new LatencyHistogram();
	readonly total = new LatencyHistogram();
	readonly submit = new LatencyHistogram();
	/** Ends per second over the last minute (a ring), for the throughput line. */
	readonly #endsBySecond = new Float64Array(60);
	#endSecond = 0;
	#coldStarts = 0;
	readonly #cold = createColdStartJudge();
	readonly #errors = new Map<string, number>();

	/** A job seen at its end: its times into the histograms, its status counted, its error grouped. */
	ended(body: JobStatusBody, now: number): void {
		const {delayTime, executionTime} = body;
		if (typeof delayTime === 'number') {
			this.delay.record(delayTime);
			if (this.#cold.judge(delayTime, body.workerId)) {
				this.#coldStarts++;
			}
		}

		if (typeof executionTime === 'number') {
			this.execution.record(executionTime);
		}

		if (typeof delayTime === 'number' && typeof executionTime === 'number') {
			this.total.record(delayTime + executionTime);
		}

		switch (body.status) {
			case 'COMPLETED': {
				this.jobs.completed++;
				break;
			}

			case 'CANCELLED': {
				this.jobs.cancelled++;
				break;
			}

			case 'TIMED_OUT': {
				this.jobs.timedOut++;
				this.error(body.error ?? 'job timed out');
				break;
			}

			default: {
				this.jobs.failed++;
				this.error(body.error ?? `job ${body.status}`);
			}
		}

		this.#countEnd(now);
	}

	/** One more message in its group (sanitised, cut short; past 20 groups, under "other errors"). */
	error(message: string): void {
		const line = sanitizeLine(message).slice(0, maxMessageLength);
		const key = this.#errors.has(line) || this.#errors.size < maxErrorGroups ? line : otherErrors;
		this.#errors.set(key, (this.#errors.get(key) ?? 0) + 1);
	}

	/** Jobs ended per second over the last `seconds` whole seconds before `now` (ms). */
	recentThroughput(now: number, seconds = 10): number {
		const current = Math.floor(now / 1000);
		this.#advance(current);
		let sum = 0;
		for (let back = 1; back <= seconds; back++) {
			sum += this.#endsBySecond[(current - back + 60) % 60]!;
		}

		return sum / seconds;
	}

	/** Jobs ended in each of the last `seconds` whole seconds before `now` (ms), oldest first: the throughput's sparkline. */
	endsPerSecond(now: number, seconds = 30): number[] {
		const current = Math.floor(now / 1000);
		this.#advance(current);
		return Array.from({length: Math.min(59, seconds)}, (_, index) => this.#endsBySecond[(current - Math.min(59, seconds) + index + 60) % 60]!);
	}

	/** Bars of the total time (or the delay when no job finished with both times). */
	bars(count: number): HistogramBar[] {
		return (this.total.count > 0 ? this.total : this.delay).bars(count);
	}

	figures(): LoadFigures {
		return {
			jobs: {...this.jobs},
			requests: {...this.requests},
			delay: this.delay.summary(),
			execution: this.execution.summary(),
			total: this.total.summary(),
			submit: this.submit.summary(),
			coldStarts: {count: this.#coldStarts, rule: coldStartRule, warmMedianMs: this.#cold.warmMedianMs()},
			errors: [...this.#errors].map(([message, count]) => ({message, count})).sort((a, b) => b.count - a.count),
		};
	}

	#countEnd(now: number): void {
		const second = Math.floor(now / 1000);
		this.#advance(second);
		this.#endsBySecond[second % 60]!++;
	}

	#advance(second: number): void {
		for (let clear = Math.max(this.#endSecond + 1, second - 59); clear <= second; clear++) {
			this.#endsBySecond[clear % 60] = 0;
		}

		this.#endSecond = Math.max(this.#endSecond, second);
	}
}
