/**
Where a job's output keeps its picture: a link to fetch, or the bytes it carries (a base64 field or
a `data:` URL). `label` names it for people: the link, or `base64 in <field>`.
*/
export type ImageSource =
	{readonly kind: 'url'; readonly url: string; readonly label: string} | {readonly kind: 'inline'; readonly base64: string; readonly label: string};

/** The base64 starts of the formats podtop knows: PNG, JPEG, GIF, WebP. */
const base64Signature = /^(?:iVBORw0KGgo|\/9j\/|R0lGOD|UklGR)/;
const dataUrl = /^data:image\/[\w.+-]+;base64,/i;
/** Field names that say a value is a picture (a link under any other name is left alone). */
const imageField = /image|img|picture|photo|png|jpe?g|base64/i;
const imagePath = /\.(?:png|jpe?g|gif|webp)$/i;
const maxDepth = 3;
const maxEntries = 64;

function fromString(value: string, key: string): ImageSource | undefined {
	const field = key || 'output';
	if (dataUrl.test(value)) {
		return {kind: 'inline', base64: value.slice(value.indexOf(',') + 1), label: `data URL in ${field}`};
	}

	if (/^https?:\/\//i.test(value)) {
		let url: URL;
		try {
			url = new URL(value);
		} catch {
			return undefined;
		}

		return imageField.test(key) || imagePath.test(url.pathname) ? {kind: 'url', url: value, label: value} : undefined;
	}

	return imageField.test(key) && base64Signature.test(value) ? {kind: 'inline', base64: value, label: `base64 in ${field}`} : undefined;
}

function search(value: unknown, key: string, depth: number): ImageSource | undefined {
	if (typeof value === 'string') {
		return fromString(value, key);
	}

	if (depth >= maxDepth || typeof value !== 'object' || value === null) {
		return undefined;
	}

	// An array's items go by the array's name (`images[0]` is an image because of `images`).
	const entries: Array<[string, unknown]> = Array.isArray(value)
		? value.slice(0, maxEntries).map(item => [key, item])
		: Object.entries(value).slice(0, maxEntries);
	for (const [name, item] of entries) {
		const found = search(item, name, depth + 1);
		if (found) {
			return found;
		}
	}

	return undefined;
}

/**
The first picture in a job's output, depth first in field order, three levels deep: a `data:image/…`
URL anywhere; an http(s) link under a field whose name says image (`image_url`, `images`, `png`…) or
whose path ends in .png, .jpg, .gif or .webp; base64 of a PNG, JPEG, GIF or WebP under such a field.
*/
export function findImage(output: unknown): ImageSource | undefined {
	return search(output, '', 0);
}

/** A short key that tells images apart: the link, or the base64's length and ends. */
export const imageKey = (source: ImageSource) =>
	source.kind === 'url' ? source.url : `${source.base64.length}:${source.base64.slice(0, 64)}:${source.base64.slice(-64)}`;
