/** Nothing there for what was asked (nothing recorded for that name or time): commands exit 4, the message says what there is instead. */
export class NotFoundError extends Error {
	override readonly name = 'NotFoundError';

	/** Read by the exit-status table (exitCodeFor), as an ApiError's kind is. */
	get kind(): 'not-found' {
		return 'not-found';
	}
}
