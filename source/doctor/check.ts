/** ✓ nothing to do, ! worth a look, ✗ podtop cannot work as it should until fixed, – not checked (and why). */
export type CheckStatus = 'ok' | 'warn' | 'fail' | 'skip';

/** One line of `podtop doctor`: what was checked, what was found, and what to do about it. */
export type CheckResult = {
	readonly id: string;
	/** What is checked, a few words: `Node.js`, `API key`, `job API`. */
	readonly title: string;
	readonly status: CheckStatus;
	/** What was found (never the key). */
	readonly found: string;
	/** How to fix it, for `warn` and `fail`. */
	readonly fix?: string;
	/** Figures for `--json` (milliseconds, bytes, counts). */
	readonly figures?: Readonly<Record<string, number | string | boolean | undefined>>;
};

export const checkResult = (result: CheckResult): CheckResult => result;

/** Whether `podtop doctor` exits 1: any check failed. */
export const anyFailed = (results: readonly CheckResult[]) => results.some(result => result.status === 'fail');
