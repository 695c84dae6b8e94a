/** An error the service reports to the caller (a GraphQL `errors[]` entry with `extensions.code`). */
export class ServiceError extends Error {
	override readonly name = 'ServiceError';
	readonly extensions: {readonly code: string};

	constructor(message: string, code = 'BAD_USER_INPUT') {
		super(message);
		this.extensions = {code};
	}
}

export const messages = {
	noCapacity: 'There are no longer any instances available with the requested specifications. Please refresh and try again.',
	noFreeGpus: 'There are not enough free GPUs on the host machine to start this pod.',
	unauthorized: 'Unauthorized',
} as const;
