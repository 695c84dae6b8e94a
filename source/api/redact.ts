/** Removes an API key from text: `?api_key=` values, bearer tokens, and the key itself anywhere. */
export function redact(text: string, apiKey?: string): string {
	let result = text.replaceAll(/([?&]api_key=)[^&\s"']+/gi, '$1[redacted]').replaceAll(/(bearer\s+)[\w.~+/=-]{8,}/gi, '$1[redacted]');
	if (apiKey && apiKey.length >= 4) {
		result = result.replaceAll(apiKey, '[redacted]');
	}

	return result;
}

/** Every key this process has used: whatever is printed on the way out of a crash has them removed. */
const secrets = new Set<string>();

/** Remembers a key, so `redactSecrets` takes it out of any text. */
export function rememberSecret(secret: string): void {
	if (secret.length >= 4) {
		secrets.add(secret);
	}
}

/** A text with every remembered key (and any bearer token or api_key= value) removed. */
export function redactSecrets(text: string): string {
	let result = redact(text);
	for (const secret of secrets) {
		result = redact(result, secret);
	}

	return result;
}

/** The key as something safe to show: its last four characters, e.g. `••••1a2b`. */
export function keyFingerprint(apiKey: string): string {
	return `••••${apiKey.slice(-4)}`;
}
