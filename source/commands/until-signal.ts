/** Resolves on the first SIGINT or SIGTERM, and stops listening. */
export async function untilSignal(): Promise<void> {
	return new Promise(resolve => {
		const stop = () => {
			process.off('SIGINT', stop);
			process.off('SIGTERM', stop);
			resolve();
		};

		process.on('SIGINT', stop);
		process.on('SIGTERM', stop);
	});
}
