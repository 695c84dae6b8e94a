import type {LogSource} from './log-ring.js';

/** Why a crash-looping endpoint's containers die, as the service's users meet it most (the fault `crash-loop`). */
export const crashCauses = ['disk-full', 'oom', 'import-error'] as const;
export type CrashCause = (typeof crashCauses)[number];

type CrashLine = readonly [LogSource, string];

/** The lines a container writes as it dies of `cause`, and what the host says after. */
export function crashLines(cause: CrashCause, exitCode: number): CrashLine[] {
	switch (cause) {
		case 'disk-full': {
			return [
				['container', 'Downloading model weights to /root/.cache/huggingface/hub'],
				['container', 'Traceback (most recent call last):'],
				['container', '  File "/usr/lib/python3.11/shutil.py", line 200, in copyfileobj'],
				['container', "OSError: [Errno 28] No space left on device: '/root/.cache/huggingface/hub/models--org--model/blobs/incomplete'"],
				['system', `Container exited with code ${exitCode}`],
			];
		}

		case 'oom': {
			return [
				['container', 'Loading model weights into memory'],
				['system', 'Memory cgroup out of memory: Killed process 1 (python3)'],
				['system', 'Container killed: out of memory (OOMKilled, exit code 137)'],
			];
		}

		default: {
			return [
				['container', 'Traceback (most recent call last):'],
				['container', '  File "/handler.py", line 4, in <module>'],
				['container', '    from vllm import LLM, SamplingParams'],
				['container', "ModuleNotFoundError: No module named 'vllm'"],
				['system', `Container exited with code ${exitCode}`],
			];
		}
	}
}

export const isCrashCause = (value: unknown): value is CrashCause => (crashCauses as readonly unknown[]).includes(value);
