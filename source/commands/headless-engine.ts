import {describeError} from '../api/errors.js';
import {redact} from '../api/redact.js';
import {createEngine, type Engine, type EngineOptions} from '../engine/create-engine.js';
import {resolveTarget, type Target, type TargetOptions} from '../engine/resolve-target.js';
import {sanitizeLine} from '../format/sanitize.js';
import {exitCodeFor} from './exit-code.js';

/**
How every headless command (`snapshot`, `watch`, `job`, and the write verbs) meets the service:
resolve the target, say its warnings on stderr, start the engine, run, and on failure print one
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
		engine = await createEngine({...(typeof options === 'function' ? options(resolved) : options), target: resolved});
		await run(engine);
	} catch (error) {
		process.stderr.write(`podtop: ${sanitizeLine(redact(describeError(error), apiKey))}\n`);
		process.exitCode = exitCodeFor(error);
	} finally {
		await engine?.close();
	}
}
