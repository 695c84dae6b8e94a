import {findDemoLink} from '../api/demo-link.js';
import {ApiError, describeError, keyRefusalStatus} from '../api/errors.js';
import {redact} from '../api/redact.js';
import {createEngine, type Engine, type EngineOptions} from '../engine/create-engine.js';
import {resolveTarget, type Target, type TargetOptions} from '../engine/resolve-target.js';
import {keyNotAccepted, retryOnCommandLine} from '../format/key-refused.js';
import {sanitizeLine} from '../format/sanitize.js';
import type {PodtopStore} from '../store/create-store.js';
import {selectKeyRefused} from '../store/key-refused.js';
import {exitCodeFor} from './exit-code.js';

/**
How every headless command (`snapshot`, `watch`, `job`, and the write verbs) meets the service:
resolve the target, say its warnings on stderr, start the engine (DEMO: on the simulator a podtop
of this user keeps running, if one does), run, and on failure print one
key-free, sanitised line and set the exit status from the one table. The engine is always closed.
The options may depend on the target (DEMO or live), given as a function of it.
*/
export async function withHeadlessEngine(
	target: TargetOptions,
	options: Omit<EngineOptions, 'target'> | ((resolved: Target) => Omit<EngineOptions, 'target'>),
	run: (engine: Engine) => Promise<void>,
): Promise<void> {
	const resolved = resolveTarget(target);
	for (const warning of resolved.warnings) {
		process.stderr.write(`podtop: ${warning}\n`);
	}

	const apiKey = resolved.mode === 'live' ? resolved.apiKey : undefined;
	let engine: Engine | undefined;
	try {
		// DEMO: the simulator a dashboard (or the agent) of this user keeps running, when one does: one account across commands.
		engine = await createEngine({demoShare: {find: findDemoLink}, ...(typeof options === 'function' ? options(resolved) : options), target: resolved});
		await run(engine);
	} catch (error) {
		// A refused key: what to do about it, not only what the service said.
		const refused = keyRefusalStatus(error);
		const line = refused === undefined ? sanitizeLine(redact(describeError(error), apiKey)) : keyNotAccepted(refused, retryOnCommandLine);
		process.stderr.write(`podtop: ${line}\n`);
		process.exitCode = exitCodeFor(error);
	} finally {
		await engine?.close();
	}
}

/** Settles with an auth error once the service refuses the key (a command that polls, like `watch`, ends with exit 3 then); `stop` lets go. */
export function whenKeyRefused(store: PodtopStore): {readonly refused: Promise<never>; readonly stop: () => void} {
	let unsubscribe = (): void => undefined;
	const refused = new Promise<never>((_resolve, reject) => {
		const check = () => {
			const status = selectKeyRefused(store.getState());
			if (status !== undefined) {
				unsubscribe();
				reject(new ApiError('auth', `HTTP ${status}`, {status}));
			}
		};

		unsubscribe = store.subscribe(check);
		check();
	});
	return {
		refused,
		stop() {
			unsubscribe();
		},
	};
}
