/** Removes an API key from text: `?api_key=` values, bearer tokens, and the key itself anywhere. */
export function redact(text: string, apiKey?: string): string {
	let result = text.replaceAll(/([?&]api_key=)[^&\s"']+/gi, '$1[redacted]').replaceAll(/(bearer\s+)[\w.~+/=-]{8,}/gi, '$1[redacted]');
	if (apiKey && apiKey.length >= 4) {
		result = result.replaceAll(apiKey, '[redacted]');
	}

	return result;
}

/** The key as something safe to show: its last four characters, e.g. `••••1a2b`. */
export function keyFingerprint(apiKey: string): string {
	return `••••${apiKey.slice(-4)}`;
}
