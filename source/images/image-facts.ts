import {imageDimensionsFromData} from 'image-dimensions';

/** What an image's header says: its format and size in pixels. */
export type ImageFacts = {
	readonly type: 'png' | 'jpeg' | 'gif' | 'webp' | 'avif' | 'heic';
	readonly width: number;
	readonly height: number;
};

/** The format and size from an image's first bytes (image-dimensions reads only its header); undefined when it is no image. */
export function imageFacts(bytes: Uint8Array): ImageFacts | undefined {
	const facts = imageDimensionsFromData(bytes);
	return facts && facts.width > 0 && facts.height > 0 ? facts : undefined;
}

/** `image 1024×1024 (png)` (with --ascii, `times` is `x`); `image` alone when the header was not read. */
export function describeFacts(facts: ImageFacts | undefined, times = '×'): string {
	return facts ? `image ${facts.width}${times}${facts.height} (${facts.type})` : 'image';
}
