import {setFlagsFromString} from 'node:v8';

/** V8's interrupt budget (bytecodes run before a function is considered for optimising), eight times its default of 67,584. */
export const interruptBudget = 8 * 67_584;

/**
For the commands that run for hours at a low duty cycle (the dashboard, `watch`, the agent): a
function is optimised only once it has run eight times the bytecode V8 asks by default. Their work
comes in small bursts (a poll, a frame), so by default TurboFan kept compiling functions that had
only just grown warm, minutes after start: V8's worker threads (its compiles, and the collector's
helpers) spent a third of the CPU of a dashboard at 500 endpoints + 2,000 pods. A loop over thousands of rows still runs its budget down in one
call and is optimised as soon as before. Set once the command is known (a short command keeps
V8's default), before its own code first runs; it holds however podtop was started.
*/
export function tuneJitForLongRuns(): void {
	setFlagsFromString(`--interrupt-budget=${interruptBudget}`);
}
