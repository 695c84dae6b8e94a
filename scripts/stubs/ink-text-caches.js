// Ink's measureText and wrapText with bounded caches. Ink 6.8 keeps every text it ever measured or
// wrapped (module-level maps, vadimdemedes/ink#986), so a screen whose rows change at every poll (a
// living fleet's utilisation and uptime) grows by each new row for as long as podtop runs.
// scripts/bundle.js loads these in place of ink/build/measure-text.js and wrap-text.js.

/** Texts kept per cache: a frame measures a few dozen. */
export const cacheLimit = 2000;

/** A Map that forgets its oldest entry (a Map keeps insertion order) past `cacheLimit`. */
function boundedCache() {
	const cache = new Map();
	return {
		cache,
		remember(key, value) {
			if (cache.size >= cacheLimit) {
				cache.delete(cache.keys().next().value);
			}

			cache.set(key, value);
			return value;
		},
	};
}

/** Ink's measureText, over the same widest-line. */
export function boundedMeasureText(widestLine) {
	const {cache, remember} = boundedCache();
	const measureText = text => {
		if (text.length === 0) {
			return {width: 0, height: 0};
		}

		return cache.get(text) ?? remember(text, {width: widestLine(text), height: text.split('\n').length});
	};

	return Object.assign(measureText, {cached: () => cache.size});
}

/** Ink's wrapText, over the same wrap-ansi and cli-truncate. */
export function boundedWrapText(wrapAnsi, cliTruncate) {
	const {cache, remember} = boundedCache();
	const wrap = (text, maxWidth, wrapType) => {
		if (wrapType === 'wrap') {
			return wrapAnsi(text, maxWidth, {trim: false, hard: true});
		}

		if (wrapType.startsWith('truncate')) {
			const position = wrapType === 'truncate-middle' ? 'middle' : wrapType === 'truncate-start' ? 'start' : 'end';
			return cliTruncate(text, maxWidth, {position});
		}

		return text;
	};

	const wrapText = (text, maxWidth, wrapType) => {
		const key = `${text}\u0000${maxWidth}\u0000${wrapType}`;
		return cache.get(key) ?? remember(key, wrap(text, maxWidth, wrapType));
	};

	return Object.assign(wrapText, {cached: () => cache.size});
}
