/** A batch's samples of one state: two values a row (the series' id or the thing's key, the values' text), the first `count` of `list`. */
export type Rows = {readonly list: Array<number | string>; count: number};

/**
Each state's list of rows, kept from one batch to the next (the recorder's, in `Written`): a poll
fills the lists its last poll filled, no list made. Made afresh at the size of the last batch's,
the list of 8,300 running pods' rows (140 KB, more than V8 keeps among young objects of their own
size) was a new large object each poll; pushed one by one, it was copied as it grew.
*/
export type RowLists = Map<string | null, Rows>;

/**
A batch's samples by state, in the lists kept in `lists`. Its texts are let go once written
(`releaseRows`): kept in the list until the next poll, 8,300 texts a poll would outlive a scavenge
and be copied by it.
*/
export function createSampleRows(lists: RowLists) {
	for (const rows of lists.values()) {
		releaseRows(rows);
	}

	return {
		/** Adds a sample, with the others of its state. */
		add(reference: number | string, state: string | undefined, text: string): void {
			const key = state ?? null;
			let rows = lists.get(key);
			if (!rows) {
				rows = {list: [], count: 0};
				lists.set(key, rows);
			}

			const {list} = rows;
			if (rows.count < list.length) {
				list[rows.count++] = reference;
				list[rows.count++] = text;
			} else {
				list.push(reference, text);
				rows.count += 2;
			}
		},
		/** Puts the states that have rows into `samples`. */
		finish(samples: Map<string | null, Rows>): void {
			for (const [key, rows] of lists) {
				if (rows.count > 0) {
					samples.set(key, rows);
				}
			}
		},
	};
}

/** The rows let go (their texts no longer held), the list kept at its length for the next batch. */
export function releaseRows(rows: Rows): void {
	rows.list.fill(0, 0, rows.count);
	rows.count = 0;
}

export type SampleRows = ReturnType<typeof createSampleRows>;
