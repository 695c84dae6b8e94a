import {existsSync} from 'node:fs';
import {fileURLToPath} from 'node:url';
import {Worker} from 'node:worker_threads';
import type {CellBox} from './decode-picture.js';
import {ImageError, type ImageErrorKind} from './image-error.js';
import type {Pixels} from './pixels.js';

/** The worker's script beside this module once built (dist/bundle/image-worker.js); absent when run from source. */
const workerFile = fileURLToPath(new URL('image-worker.js', import.meta.url));

/**
Heap for one decode: a 4096 × 4096 picture's pixels live in buffers outside it; what jpeg-js and pngjs
keep on the heap is far less. A decode that needs more ends the worker, not podtop.

The buffers outside the heap are bounded before either decoder starts. For a PNG (png-bounds.ts): the
file (20 MB) and its joined IDAT (20 MB), the check's inflate (64 MB), then pngjs's joined IDAT (20 MB),
inflated data, unfiltered rows, bitmap and RGBA (64 MB each): 380 MB at worst. For a JPEG: the file
and jpeg-js's own count of what it allocates (256 MB), 276 MB, and at most 64 scans. With the heap's
96 + 16 MB, one decode holds under 500 MB, and lets it all go when the worker ends.
*/
const resourceLimits = {maxOldGenerationSizeMb: 96, maxYoungGenerationSizeMb: 16, stackSizeMb: 4};

/**
How long a decode may take before its worker is ended: a 4096 × 4096 progressive JPEG takes a few
seconds on a busy machine; what takes longer is refused.
*/
const decodeDeadlineMs = 30_000;

/**
Decodes and shrinks a picture to fit `box` in a worker thread that ends with it (its memory goes
with it); inline when the worker's script is not there (tests run the sources). Aborting ends the
worker at once.
*/
export async function decodeOffThread(bytes: Buffer, box: CellBox, signal?: AbortSignal): Promise<Pixels> {
	if (!existsSync(workerFile)) {
		// The decoders (pngjs, jpeg-js) load only here or in the worker: never with the dashboard.
		const {decodePicture} = await import('./decode-picture.js');
		return decodePicture(bytes, box);
	}

	return new Promise((resolve, reject) => {
		const worker = new Worker(workerFile, {workerData: {bytes, box}, resourceLimits, execArgv: [], stdout: true, stderr: true});
		let settled = false;
		const deadline = setTimeout(() => {
			settle(() => {
				reject(new ImageError('too-large', `picture refused: it takes more than ${decodeDeadlineMs / 1000} s to decode`));
			});
			void worker.terminate();
		}, decodeDeadlineMs);
		const settle = (action: () => void) => {
			if (!settled) {
				settled = true;
				clearTimeout(deadline);
				signal?.removeEventListener('abort', onAbort);
				action();
			}
		};

		const onAbort = () => {
			settle(() => {
				reject(new ImageError('broken', 'the decode was cancelled'));
			});
			void worker.terminate();
		};

		signal?.addEventListener('abort', onAbort, {once: true});
		worker.once('message', (message: {pixels?: Pixels; error?: {kind: ImageErrorKind; message: string}}) => {
			settle(() => {
				if (message.pixels) {
					resolve(message.pixels);
				} else {
					reject(new ImageError(message.error?.kind ?? 'broken', message.error?.message ?? 'the image could not be decoded'));
				}
			});
		});
		worker.once('error', (error: Error) => {
			settle(() => {
				const memory = (error as {code?: string}).code === 'ERR_WORKER_OUT_OF_MEMORY';
				reject(
					new ImageError(
						memory ? 'too-large' : 'broken',
						memory ? 'the image needs more memory to decode than podtop allows; not drawn' : `the image could not be decoded (${error.message})`,
					),
				);
			});
		});
		worker.once('exit', () => {
			settle(() => {
				reject(new ImageError('broken', 'the image decoder stopped without an answer'));
			});
		});
		if (signal?.aborted) {
			onAbort();
		}
	});
}
