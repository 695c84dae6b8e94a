import {createConnection} from 'node:net';
import {createClientHandshake} from '../api/agent-handshake.js';
import {createLineSplitter} from '../api/agent-protocol.js';
import {agentIsSameUser, findAgentSocket} from '../api/agent-socket-trust.js';
import {checkResult, type CheckResult} from './check.js';

type Greeting = Readonly<Record<string, unknown>>;

/** Says hello without the feed, proves the account both ways and reads the agent's greeting (with what it says of itself); rejects with why not. */
async function greet(socketPath: string, secret: string, timeoutMs: number): Promise<Greeting> {
	return new Promise((resolve, reject) => {
		const handshake = createClientHandshake(secret, {feed: false});
		const socket = createConnection(socketPath);
		const split = createLineSplitter(handshake.maxLineLength);
		const timer = setTimeout(() => {
			socket.destroy();
			reject(new Error(`no answer within ${timeoutMs / 1000} s`));
		}, timeoutMs);
		const done = (settle: () => void) => {
			clearTimeout(timer);
			socket.destroy();
			settle();
		};

		socket.setEncoding('utf8');
		socket.on('connect', () => {
			socket.write(handshake.hello);
		});
		socket.on('data', (chunk: string) => {
			for (const line of split(chunk)) {
				const step = handshake.take(line);
				if ('answer' in step) {
					socket.write(step.answer);
					continue;
				}

				done(() => {
					if ('greeting' in step) {
						resolve(step.greeting);
					} else {
						reject(new Error(`it ${step.failure}`));
					}
				});
				return;
			}
		});
		socket.on('error', (error: NodeJS.ErrnoException) => {
			done(() => {
				reject(new Error(error.code ?? error.message));
			});
		});
		socket.on('close', () => {
			done(() => {
				reject(new Error('it closed the connection'));
			});
		});
	});
}

type Options = {
	readonly candidates: readonly string[];
	/** `agentSecret(key)` for the handshake: never sent. */
	readonly secret: string;
	readonly version: string;
	readonly timeoutMs?: number;
};

/** Whether an agent serves this account on this host, attaches, runs this version, and what 429s its last hour saw. */
export async function agentCheck({candidates, secret, version, timeoutMs = 3000}: Options): Promise<CheckResult> {
	const distrusted: string[] = [];
	const socketPath = findAgentSocket(candidates, why => {
		distrusted.push(why);
	});
	if (!socketPath && distrusted.length > 0) {
		return checkResult({
			id: 'agent',
			title: 'agent',
			status: 'warn',
			found: distrusted.join('; '),
			fix: 'another user may have made the folder first: remove it (or ask root to), then start `podtop agent` again (podtop polls on its own meanwhile)',
		});
	}

	if (!socketPath) {
		return checkResult({
			id: 'agent',
			title: 'agent',
			status: 'skip',
			found: 'none serves this account on this host (optional: `podtop agent` polls once for every podtop here)',
		});
	}

	let greeting: Greeting;
	try {
		greeting = await greet(socketPath, secret, timeoutMs);
	} catch (error) {
		return checkResult({
			id: 'agent',
			title: 'agent',
			status: 'warn',
			found: `${socketPath}: cannot attach (${(error as Error).message})`,
			fix: 'a stale socket, a stuck agent, another key or an older version: restart `podtop agent` with this key and version (podtop polls on its own meanwhile)',
		});
	}

	const theirs = typeof greeting.version === 'string' ? greeting.version : 'an older podtop';
	const features = Array.isArray(greeting.features) ? greeting.features.map(String) : [];
	const rateLimited = greeting.rateLimited as {lastHour?: unknown; lastAt?: unknown} | undefined;
	const limited = typeof rateLimited?.lastHour === 'number' ? rateLimited.lastHour : undefined;
	const owner = agentIsSameUser(socketPath) ? 'yours' : "another user's (--group)";
	const found = [
		`${socketPath} (${owner}), attached, ${theirs === version ? `same version ${version}` : `version ${theirs}, this podtop ${version}`}`,
		features.includes('record') ? 'records history' : features.includes('history') ? 'serves history' : 'keeps no history',
		limited === undefined ? undefined : limited === 0 ? 'no 429 in its last hour' : `${limited} 429s in its last hour`,
	]
		.filter(Boolean)
		.join(', ');
	const figures = {socketPath, version: theirs, sameVersion: theirs === version, rateLimitedLastHour: limited};
	if (theirs !== version) {
		return checkResult({id: 'agent', title: 'agent', status: 'warn', found, fix: 'restart `podtop agent` so it runs this version', figures});
	}

	if (limited !== undefined && limited > 0) {
		return checkResult({
			id: 'agent',
			title: 'agent',
			status: 'warn',
			found,
			fix: 'the account is near its limits: something else polls it too (scripts, another host), or lower the agent --budget',
			figures,
		});
	}

	return checkResult({id: 'agent', title: 'agent', status: 'ok', found, figures});
}
