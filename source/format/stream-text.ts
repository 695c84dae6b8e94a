/**
The text a stream chunk adds to a job's output: text-generation chunks carry `output.text` (a list
of strings), plain workers a string; anything else is shown as one JSON line.
*/
export function chunkText(output: unknown): string {
	if (typeof output === 'string') {
		return output;
	}

	if (typeof output === 'object' && output !== null && Array.isArray((output as {text?: unknown}).text)) {
		return (output as {text: unknown[]}).text.filter(piece => typeof piece === 'string').join('');
	}

	return output === undefined ? '' : `${JSON.stringify(output)}\n`;
}
