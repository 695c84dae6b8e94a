/** Whether a filter lets every row through (none typed, or only the `!`). */
export const matchesEverything = (filter: string) => filter === '' || filter === '!';

const patternOf = (filter: string) => (filter.startsWith('!') ? filter.slice(1) : filter);

/**
Why a filter is not a regex (`Unterminated character class`), or undefined when it is one. A
filter that is not is never applied: the rows of the last one that was stay on screen.
*/
export function filterProblem(filter: string): string | undefined {
	try {
		// eslint-disable-next-line no-new -- compiled only to see whether it compiles
		new RegExp(patternOf(filter), 'im');
		return undefined;
	} catch (error) {
		// V8 says `Invalid regular expression: /[a/im: Unterminated character class`: the reason is after the last colon.
		return (error instanceof Error ? error.message : String(error)).split(': ').at(-1);
	}
}

/**
`/` filter: a case-insensitive regex over a row's searched fields, one a line (`^` and `$` are a
field's start and end, `.` never spans two); a leading `!` inverts it. An invalid regex is matched as
plain text (the dashboard never applies one: see filterProblem).
*/
export function filterMatcher(filter: string): (text: string) => boolean {
	if (matchesEverything(filter)) {
		return () => true;
	}

	const inverted = filter.startsWith('!');
	const pattern = patternOf(filter);

	let test: (text: string) => boolean;
	try {
		const regex = new RegExp(pattern, 'im');
		test = text => regex.test(text);
	} catch {
		const needle = pattern.toLowerCase();
		test = text => text.toLowerCase().includes(needle);
	}

	return inverted ? text => !test(text) : test;
}

/** A span of text a filter matched: [start, end) in UTF-16 units. */
export type MatchSpan = readonly [start: number, end: number];

/**
Where a filter matches in a text, to highlight: every non-empty match of its regex. None for an
inverted filter (the lines it keeps are those it does not match) or one that is not a regex.
*/
export function filterSpans(filter: string): (text: string) => MatchSpan[] {
	if (matchesEverything(filter) || filter.startsWith('!') || filterProblem(filter) !== undefined) {
		return () => [];
	}

	const regex = new RegExp(filter, 'gim');
	return text => {
		const spans: MatchSpan[] = [];
		for (const match of text.matchAll(regex)) {
			if (match[0].length > 0) {
				spans.push([match.index, match.index + match[0].length]);
			}
		}

		return spans;
	};
}
