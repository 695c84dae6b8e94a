/** A signal that aborts with its source or after a time, and `done` to let go of both once the request is over. */
export type LinkedSignal = {readonly signal: AbortSignal; readonly done: () => void};

/** Runs `run` with a signal linked to `source` and `timeoutMs` (see `linkedSignal`), let go once it has settled. */
export async function withLinkedSignal<T>(source: AbortSignal | undefined, timeoutMs: number, run: (signal: AbortSignal) => Promise<T>): Promise<T> {
	const linked = linkedSignal(source, timeoutMs);
	try {
		return await run(linked.signal);
	} finally {
		linked.done();
	}
}

/**
A signal that aborts when `source` does (with its reason) or after `timeoutMs` (a `TimeoutError`,
as `AbortSignal.timeout` gives). Unlike `AbortSignal.any([source, AbortSignal.timeout(ms)])`, it
leaves nothing on a long-lived source once `done` is called: Node 20 kept a reference on the source
for every signal `any` made from it, for as long as the source lived (a request's worth each time, for
the life of the process); Node 24 no longer does.
*/
export function linkedSignal(source: AbortSignal | undefined, timeoutMs: number): LinkedSignal {
	const controller = new AbortController();
	const timer = setTimeout(() => {
		controller.abort(new DOMException('The operation was aborted due to timeout', 'TimeoutError'));
	}, timeoutMs);
	timer.unref();
	const follow = () => {
		controller.abort(source?.reason);
	};

	if (source?.aborted) {
		follow();
	} else {
		source?.addEventListener('abort', follow, {once: true});
	}

	return {
		signal: controller.signal,
		done() {
			clearTimeout(timer);
			source?.removeEventListener('abort', follow);
		},
	};
}
