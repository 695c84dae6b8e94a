import {decodeOffThread} from './decode-off-thread.js';
import type {CellBox} from './decode-picture.js';
import type {FetchImageOptions} from './fetch-image.js';
import {imageKey, type ImageSource} from './find-image.js';
import {imageFacts, type ImageFacts} from './image-facts.js';
import type {Pixels} from './pixels.js';

/** An image's bytes as fetched (or decoded from base64), with what its header says. */
export type LoadedImage = {
	readonly source: ImageSource;
	readonly bytes: Buffer;
	/** Undefined when the bytes are no image podtop recognises. */
	readonly facts: ImageFacts | undefined;
};

export type ImageLoader = {
	/** The image's bytes: fetched once per link (a second call shares the first's answer, success or failure). */
	readonly load: (source: ImageSource) => Promise<LoadedImage>;
	/** The picture shrunk to fit `box`, decoded from the kept bytes (a resize decodes again; nothing is fetched again). */
	readonly picture: (image: LoadedImage, box: CellBox, signal?: AbortSignal) => Promise<Pixels>;
	/** Stops fetches under way and forgets every image. */
	readonly close: () => void;
};

/** How many images' bytes are kept (each at most 20 MB; a finished job's picture is usually under 2 MB). */
const kept = 4;

/** Fetches and decodes pictures for the job view: each link once, its bytes kept for redraws, the oldest let go. */
export function createImageLoader(options: Omit<FetchImageOptions, 'signal'> = {}): ImageLoader {
	const loads = new Map<string, Promise<LoadedImage>>();
	const stop = new AbortController();
	return {
		async load(source) {
			const key = imageKey(source);
			let load = loads.get(key);
			if (load) {
				// Most recently used last: the first key is the one to let go.
				loads.delete(key);
			} else {
				load = (async () => {
					// undici loads with the first picture, not with the dashboard's first frame.
					const {decodeBase64Image, fetchImage} = await import('./fetch-image.js');
					const bytes = source.kind === 'url' ? (await fetchImage(source.url, {...options, signal: stop.signal})).bytes : decodeBase64Image(source.base64);
					return {source, bytes, facts: imageFacts(bytes)};
				})();
				// Nobody may be waiting by the time it fails.
				load.catch(() => undefined);
			}

			loads.set(key, load);
			while (loads.size > kept) {
				loads.delete(loads.keys().next().value!);
			}

			return load;
		},
		async picture(image, box, signal) {
			return decodeOffThread(image.bytes, box, signal);
		},
		close() {
			stop.abort();
			loads.clear();
		},
	};
}
