/** Bad input found before anything was sent: the message says how to fix it; commands exit 2. */
export class UsageError extends Error {
	override readonly name = 'UsageError';
}
