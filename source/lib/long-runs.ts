import {lowerHelperThreadPriority} from './helper-priority.js';

/**
What the commands that run for hours (the dashboard, `watch`, the agent) set once the command is
known, before their own code first runs: V8's helper threads below the main thread (`helper-priority.ts`).
*/
export function tuneForLongRuns(): void {
	lowerHelperThreadPriority();
}
