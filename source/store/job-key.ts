/** A tracked job's key in the store: `<endpoint_id>/<job_id>`. */
export const jobKey = (endpointId: string, jobId: string) => `${endpointId}/${jobId}`;

/** The endpoint and job of a key made by `jobKey` (job ids may hold a slash; endpoint ids do not). */
export function splitJobKey(key: string): {endpointId: string; jobId: string} {
	const slash = key.indexOf('/');
	return {endpointId: key.slice(0, slash), jobId: key.slice(slash + 1)};
}
