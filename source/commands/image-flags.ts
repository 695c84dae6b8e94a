import type {CompletableFlags} from './value-kind.js';

/** The flags of `job` and `run` that save a job's image (what they do: finish-image.ts). */
export const imageFlags = {
	save: {type: 'string', complete: 'file'},
	force: {type: 'boolean', default: false},
} as const satisfies CompletableFlags;
