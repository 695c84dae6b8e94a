/** Why a picture cannot be shown: too large to fetch or decode, not a picture podtop can draw, broken, or where podtop does not fetch. */
export type ImageErrorKind = 'too-large' | 'unsupported' | 'broken' | 'refused';

/** A picture that cannot be shown; the message is a sentence for people. */
export class ImageError extends Error {
	override readonly name = 'ImageError';
	readonly kind: ImageErrorKind;

	constructor(kind: ImageErrorKind, message: string, options: {cause?: unknown} = {}) {
		super(message, options);
		this.kind = kind;
	}
}

/** The cap on an image's bytes, fetched or inline: the service's own /runsync body limit. */
export const imageByteLimit = 20 * 1024 * 1024;

/** The cap on an image's pixels before decoding (a 20 MB file can claim billions): 4096 × 4096. */
export const imagePixelLimit = 4096 * 4096;

export const megabytes = (bytes: number) => `${(bytes / 1024 / 1024).toFixed(1)} MB`;
