export const logSources = ['container', 'system'] as const;
export type LogSource = (typeof logSources)[number];

/** One log line as the service keeps it: `seq` orders a worker's (or pod's) lines and makes resuming exact. */
export type LogLine = {
	readonly seq: number;
	/** Simulated epoch ms. */
	readonly ts: number;
	readonly source: LogSource;
	readonly line: string;
};

type Listener = {readonly line: (line: LogLine) => void; readonly end: () => void};

/** The most lines one worker or pod keeps: the spec's largest `tail` (5,000 lines of about 100 bytes, 0.5 MB at most). */
export const logRingCapacity = 5000;

/**
A worker's or pod's recent log lines, oldest dropped first past `capacity`, and the streams that follow it.
`close` says the worker or pod is gone: every stream ends, and nothing more is written.
*/
export class LogRing {
	readonly #lines: LogLine[] = [];
	readonly #capacity: number;
	/** Index in `#lines` of the oldest line once the ring is full. */
	#head = 0;
	#seq = 0;
	#closed = false;
	readonly #listeners = new Set<Listener>();

	constructor(capacity = logRingCapacity) {
		this.#capacity = capacity;
	}

	get closed(): boolean {
		return this.#closed;
	}

	get size(): number {
		return this.#lines.length;
	}

	write(ts: number, source: LogSource, line: string): void {
		if (this.#closed) {
			return;
		}

		const entry: LogLine = {seq: ++this.#seq, ts, source, line};
		if (this.#lines.length < this.#capacity) {
			this.#lines.push(entry);
		} else {
			this.#lines[this.#head] = entry;
			this.#head = (this.#head + 1) % this.#capacity;
		}

		for (const listener of this.#listeners) {
			listener.line(entry);
		}
	}

	/** The kept lines, oldest first. */
	lines(): LogLine[] {
		return [...this.#lines.slice(this.#head), ...this.#lines.slice(0, this.#head)];
	}

	/** Follows new lines until `close` (then `end` is called) or until the returned function is called. */
	follow(line: (line: LogLine) => void, end: () => void): () => void {
		if (this.#closed) {
			end();
			return () => {};
		}

		const listener = {line, end};
		this.#listeners.add(listener);
		return () => {
			this.#listeners.delete(listener);
		};
	}

	close(): void {
		if (this.#closed) {
			return;
		}

		this.#closed = true;
		for (const listener of this.#listeners) {
			listener.end();
		}

		this.#listeners.clear();
	}
}
