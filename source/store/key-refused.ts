import type {PodtopState} from './state.js';

/** The status with which the service refused the key, while a source's last answer refused it (a number: a narrow selector). */
export const selectKeyRefused = (state: PodtopState): number | undefined => state.keyRefused.graphql ?? state.keyRefused.jobApi;
