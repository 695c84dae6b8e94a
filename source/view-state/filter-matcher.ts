/** Whether a filter lets every row through (none typed, or only the `!`). */
export const matchesEverything = (filter: string) => filter === '' || filter === '!';

/**
`/` filter: a case-insensitive regex over the row's text; a leading `!` inverts it. An invalid
regex is matched as plain text, so typing never breaks the list.
*/
export function filterMatcher(filter: string): (text: string) => boolean {
	if (matchesEverything(filter)) {
		return () => true;
	}

	const inverted = filter.startsWith('!');
	const pattern = inverted ? filter.slice(1) : filter;

	let test: (text: string) => boolean;
	try {
		const regex = new RegExp(pattern, 'i');
		test = text => regex.test(text);
	} catch {
		const needle = pattern.toLowerCase();
		test = text => text.toLowerCase().includes(needle);
	}

	return inverted ? text => !test(text) : test;
}
