import type {SqliteDatabase} from './history-file.js';

/** Parameters one statement binds at most: well under SQLite's limit. */
const parametersPerStatement = 4096;
/** Rows one statement inserts at most (a poll of 10,000 pods is some twenty calls). */
const maxRowsPerStatement = 512;

/**
Inserts (or replaces) many rows with few calls: rows go in as bound parameters of multi-row VALUES
statements. Binding is cheaper than unpacking a JSON text in SQLite (`json_each` with `->>` per
column: 40 → 24 ms CPU for 9,000 raw samples). The `shared` columns (a poll's instant) are bound
once per statement and named by every row (a quarter fewer parameters for raw samples).

Statements are of a power of two rows, each prepared once: a count of rows is sent as the largest
that fit, then the next (9,000 rows: seventeen 512s, then 256, 128, 64, 8). One statement per
count left over was prepared anew at almost every poll (its count differs each time), and kept.
`prepareAll` prepares them all here (raw samples: 12 ms), not in the first polls that need them.
*/
export function createBulkInsert(db: SqliteDatabase, table: string, columns: readonly string[], shared: readonly string[] = [], {prepareAll = false} = {}) {
	const fit = Math.floor((parametersPerStatement - shared.length) / columns.length);
	let rowsPerStatement = 1;
	while (rowsPerStatement * 2 <= Math.min(fit, maxRowsPerStatement)) {
		rowsPerStatement *= 2;
	}

	const statements = new Map<number, ReturnType<SqliteDatabase['prepare']>>();
	const statement = (rows: number) => {
		let prepared = statements.get(rows);
		if (!prepared) {
			const sharedNames = shared.map((_, index) => `?${index + 1}`);
			const values = Array.from(
				{length: rows},
				(_, row) => `(${[...sharedNames, ...columns.map((_, column) => `?${shared.length + row * columns.length + column + 1}`)].join(',')})`,
			);
			prepared = db.prepare(`INSERT OR REPLACE INTO ${table} (${[...shared, ...columns].join(', ')}) VALUES ${values.join(',')}`);
			statements.set(rows, prepared);
		}

		return prepared;
	};

	if (prepareAll) {
		for (let rows = rowsPerStatement; rows >= 1; rows /= 2) {
			statement(rows);
		}
	}

	/** Each statement's parameters, kept (made anew for each statement, 17 lists of 1,025 a poll at 10,000 pods). */
	const parameterLists = new Map<number, unknown[]>();

	/**
	Inserts the rows given flat (each row's values in the order of `columns`, one row after another), each with the
	`shared` values: the first `length` values (all of them unless said).
	*/
	return (values: readonly unknown[], sharedValues: readonly unknown[] = [], length = values.length): void => {
		const width = columns.length;
		const rows = length / width;
		let start = 0;
		let count = rowsPerStatement;
		while (start < rows) {
			while (count > rows - start) {
				count /= 2;
			}

			const size = sharedValues.length + count * width;
			let parameters = parameterLists.get(size);
			if (!parameters) {
				// Made at its size (pushed one by one, a list of 1,000 was copied as it grew).
				parameters = Array.from({length: size}, () => 0);
				parameterLists.set(size, parameters);
			}

			let next = 0;
			for (const value of sharedValues) {
				parameters[next++] = value;
			}

			const end = (start + count) * width;
			for (let index = start * width; index < end; index++) {
				parameters[next++] = values[index];
			}

			try {
				statement(count).run(parameters);
			} finally {
				// The values let go (texts kept until the next poll would outlive a scavenge).
				parameters.fill(0);
			}

			start += count;
		}
	};
}
