import {homedir} from 'node:os';
import {join} from 'node:path';

/** podtop's state folder: `$XDG_STATE_HOME/podtop`, `~/.local/state/podtop` by default (history, audit log, saved logs, the demo's socket). */
export function stateDirectory(env: NodeJS.ProcessEnv = process.env): string {
	const state = env.XDG_STATE_HOME?.startsWith('/') ? env.XDG_STATE_HOME : join(homedir(), '.local', 'state');
	return join(state, 'podtop');
}
