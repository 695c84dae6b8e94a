import type {ListPane} from './ui-state.js';

export type Command =
	| {readonly type: 'pane'; readonly pane: ListPane}
	| {readonly type: 'job'; readonly endpointId: string; readonly jobId: string}
	| {readonly type: 'help'}
	| {readonly type: 'refresh'}
	| {readonly type: 'quit'}
	| {readonly type: 'error'; readonly message: string};

const names: Record<string, Exclude<Command, {type: 'error' | 'job'}>> = {
	endpoints: {type: 'pane', pane: 'endpoints'},
	ep: {type: 'pane', pane: 'endpoints'},
	pods: {type: 'pane', pane: 'pods'},
	po: {type: 'pane', pane: 'pods'},
	gpus: {type: 'pane', pane: 'gpus'},
	gpu: {type: 'pane', pane: 'gpus'},
	help: {type: 'help'},
	refresh: {type: 'refresh'},
	quit: {type: 'quit'},
	q: {type: 'quit'},
};

export const commandNames = ['endpoints', 'pods', 'gpus', 'job', 'refresh', 'help', 'quit'] as const;

/** Reads what was typed after `:`. */
export function parseCommand(input: string): Command {
	const [name = '', ...args] = input.trim().replace(/^:/, '').split(/\s+/);
	if (name === 'job') {
		if (args.length !== 2) {
			return {type: 'error', message: 'usage: :job <endpoint_id> <job_id>'};
		}

		return {type: 'job', endpointId: args[0]!, jobId: args[1]!};
	}

	return names[name] ?? {type: 'error', message: `unknown command ":${name}" (try :endpoints, :pods, :gpus, :job <endpoint> <id>, :quit)`};
}

/** Tab completion: the command name first, then (for :job) the endpoint id, then a tracked job id. */
export function completeCommand(input: string, context: {readonly endpointIds: readonly string[]; readonly jobIds: (endpointId: string) => readonly string[]}): string {
	const parts = input.split(/\s+/);
	const candidatesFor = (index: number): readonly string[] => {
		if (index === 0) {
			return commandNames;
		}

		if (parts[0] === 'job' && index === 1) {
			return context.endpointIds;
		}

		if (parts[0] === 'job' && index === 2) {
			return context.jobIds(parts[1]!);
		}

		return [];
	};

	const index = parts.length - 1;
	const partial = parts[index]!;
	const matches = candidatesFor(index).filter(candidate => candidate.startsWith(partial));
	if (matches.length === 0) {
		return input;
	}

	const common = matches.reduce((prefix, candidate) => {
		let length = 0;
		while (length < prefix.length && prefix[length] === candidate[length]) {
			length++;
		}

		return prefix.slice(0, length);
	});
	const completed = matches.length === 1 ? `${matches[0]!} ` : common;
	return [...parts.slice(0, index), completed].join(' ');
}
