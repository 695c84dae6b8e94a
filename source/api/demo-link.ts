import {lstatSync} from 'node:fs';
import {createConnection} from 'node:net';
import {dirname, join} from 'node:path';
import {stateDirectory} from '../lib/state-directory.js';
import {socketTrust} from './agent-socket-trust.js';

/** Where a DEMO podtop that keeps running (a dashboard, the agent) tells this user's other podtops how to reach its simulator. */
export function demoSocketPath(env: NodeJS.ProcessEnv = process.env): string {
	return join(stateDirectory(env), 'demo', 'simulator.sock');
}

/** A running demo simulator: its origin (loopback) and its key (a random simulator key, never an account's). */
export type DemoLink = {readonly url: string; readonly apiKey: string};

/** The one line a demo host answers each connection with. */
export const demoLinkLine = (link: DemoLink): string => `${JSON.stringify({type: 'demo-simulator', ...link})}\n`;

/** The most a host's answer may be (it is some 100 bytes). */
const maxAnswerBytes = 4096;
/** A host on this machine answers at once; a second is room for a busy one. */
const answerTimeoutMs = 1000;

/** Nothing of the folder or the socket may be reached by another user: the demo is never served to a group. */
function privateToOwner(socketPath: string): boolean {
	try {
		// eslint-disable-next-line no-bitwise
		return (lstatSync(dirname(socketPath)).mode & 0o077) === 0 && (lstatSync(socketPath).mode & 0o077) === 0;
	} catch {
		return false;
	}
}

/** The answer read as a link, or undefined: a loopback origin of the simulator and a key of its own format. */
function readLink(text: string): DemoLink | undefined {
	try {
		const value = JSON.parse(text) as Record<string, unknown>;
		const {type, url, apiKey} = value;
		return type === 'demo-simulator' &&
			typeof url === 'string' &&
			/^http:\/\/127\.0\.0\.1:\d{1,5}$/.test(url) &&
			typeof apiKey === 'string' &&
			/^rpa_SIM[\dA-F]{36}$/.test(apiKey)
			? {url, apiKey}
			: undefined;
	} catch {
		return undefined;
	}
}

/**
The simulator a DEMO podtop of this user keeps running, when one does: asked on its socket, which is
trusted only as an agent's is (folder and socket this user's, looked at without following a link,
written by nobody else) and only when neither may be reached by anyone else. Undefined when there is
none, it does not answer within a second, or its answer is not a link.
*/
export async function findDemoLink(socketPath = demoSocketPath()): Promise<DemoLink | undefined> {
	if (!socketTrust(socketPath).trusted || !privateToOwner(socketPath)) {
		return undefined;
	}

	return new Promise<DemoLink | undefined>(resolve => {
		const socket = createConnection(socketPath);
		let text = '';
		const done = (link: DemoLink | undefined) => {
			clearTimeout(timer);
			socket.destroy();
			resolve(link);
		};

		const timer = setTimeout(() => {
			done(undefined);
		}, answerTimeoutMs);
		socket.setEncoding('utf8');
		socket.on('data', (chunk: string) => {
			text += chunk;
			const end = text.indexOf('\n');
			if (end !== -1) {
				done(readLink(text.slice(0, end)));
			} else if (text.length > maxAnswerBytes) {
				done(undefined);
			}
		});
		socket.once('end', () => {
			done(undefined);
		});
		socket.once('error', () => {
			done(undefined);
		});
	});
}
