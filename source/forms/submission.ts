import type {JobRequest} from '../api/job-types.js';

/** A job ready to send, as a submit form produces it. */
export type Submission = {
	readonly request: JobRequest;
	/** Present for `/runsync`, with the wait asked for (if any). */
	readonly sync?: {readonly waitMs?: number};
	/** For the confirmation: the route and size, or what the image costs. */
	readonly summary: string;
};
