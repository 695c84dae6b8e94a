import {echoWorker} from './echo.js';
import {flakyWorker} from './flaky.js';
import {createFluxWorker, fluxDev, fluxSchnell} from './flux.js';
import type {WorkerHandler} from './handler.js';
import {slowWorker} from './slow.js';
import {textGenerationWorker} from './text-generation.js';

export const workerKinds = ['echo', 'text-generation', 'flaky', 'slow', 'flux-dev', 'flux-schnell'] as const;
export type WorkerKind = (typeof workerKinds)[number];

export const workerHandlers: Record<WorkerKind, WorkerHandler> = {
	echo: echoWorker,
	'text-generation': textGenerationWorker,
	flaky: flakyWorker,
	slow: slowWorker,
	'flux-dev': createFluxWorker(fluxDev),
	'flux-schnell': createFluxWorker(fluxSchnell),
};
