import {existsSync} from 'node:fs';
import {fileURLToPath} from 'node:url';
import {Worker} from 'node:worker_threads';
import type {EndpointSpec} from './endpoint-spec.js';
import type {PastFigures} from './past-run.js';
import type {SimThreadMessage} from './sim-thread.js';
import {startSimulator, type RunningSimulator, type StartSimulatorOptions} from './start-simulator.js';

/** How long a closing thread may take before it is stopped. */
const closeTimeoutMs = 5000;

/**
Starts the simulator in a thread of its own (the demo does): its past runs on another core while
this thread draws and records, and its fleet's load never holds up a frame. The young generation
is sized for it (a simulated hour is 12,000 jobs, each garbage within microseconds of real time).
From TypeScript sources (the tests), where there is no built script to run, it starts in this thread.
*/
export async function startSimulatorThread(options: StartSimulatorOptions): Promise<RunningSimulator> {
	const script = new URL('sim-thread.js', import.meta.url);
	if (!existsSync(fileURLToPath(script))) {
		return startSimulator(options);
	}

	const worker = new Worker(script, {workerData: options, resourceLimits: {maxYoungGenerationSizeMb: 48, maxOldGenerationSizeMb: 256}});
	worker.unref();
	let figures: PastFigures | undefined;
	let reachPresent = () => {};
	const present = new Promise<void>(resolve => {
		reachPresent = resolve;
	});
	const exited = new Promise<void>(resolve => {
		worker.once('exit', () => {
			// A thread gone for any reason has no past left to wait for.
			reachPresent();
			resolve();
		});
	});
	const listening = await new Promise<Extract<SimThreadMessage, {type: 'listening'}>>((resolve, reject) => {
		worker.on('message', (message: SimThreadMessage) => {
			switch (message.type) {
				case 'listening': {
					resolve(message);
					break;
				}

				case 'present': {
					figures = message.figures as PastFigures;
					reachPresent();
					break;
				}

				case 'failed': {
					reject(new Error(message.message));
					break;
				}

				default:
			}
		});
		worker.once('error', reject);
		worker.once('exit', code => {
			reject(new Error(`the simulator's thread ended (${code}) before it listened`));
		});
	});
	// After it listened, a failing thread shows as its exit (and the demo's requests failing), not as a crash of this one.
	worker.on('error', () => undefined);
	let closed: Promise<void> | undefined;
	return {
		url: listening.url,
		apiKey: listening.apiKey,
		endpoints: listening.endpoints as EndpointSpec[],
		present,
		pastFigures: () => figures,
		async close() {
			closed ??= (async () => {
				worker.postMessage({type: 'close'});
				const timer = setTimeout(() => {
					void worker.terminate();
				}, closeTimeoutMs);
				await exited;
				clearTimeout(timer);
			})();
			return closed;
		},
	};
}
