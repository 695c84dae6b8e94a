import {createConnection} from 'node:net';
import {agentIsSameUser, agentProtocolVersion, createLineSplitter, findAgentSocket} from '../api/agent-protocol.js';
import {checkResult, type CheckResult} from './check.js';

type Greeting = Readonly<Record<string, unknown>>;

/** Says hello without the feed and reads the agent's first line: attached (with what it says of itself) or refused. */
async function greet(socketPath: string, proof: string, timeoutMs: number): Promise<Greeting> {
	return new Promise((resolve, reject) => {
		const socket = createConnection(socketPath);
		const split = createLineSplitter(1024 * 1024);
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
			const hello = JSON.stringify({type: 'hello', protocol: agentProtocolVersion, account: proof, feed: false});
			socket.write(`${hello}\n`);
		});
		socket.on('data', (chunk: string) => {
			const [line] = split(chunk);
			if (line === undefined) {
				return;
			}

			try {
				const message = JSON.parse(line) as Greeting;
				done(() => {
					resolve(message);
				});
			} catch {
				done(() => {
					reject(new Error('it does not speak podtop'));
				});
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
	readonly proof: string;
	readonly version: string;
	readonly timeoutMs?: number;
};

/** Whether an agent serves this account on this host, attaches, runs this version, and what 429s its last hour saw. */
export async function agentCheck({candidates, proof, version, timeoutMs = 3000}: Options): Promise<CheckResult> {
	const socketPath = findAgentSocket(candidates);
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
		greeting = await greet(socketPath, proof, timeoutMs);
	} catch (error) {
		return checkResult({
			id: 'agent',
			title: 'agent',
			status: 'warn',
			found: `${socketPath}: cannot attach (${(error as Error).message})`,
			fix: 'a stale socket or a stuck agent: restart `podtop agent` (podtop polls on its own meanwhile)',
		});
	}

	if (greeting.type === 'refused') {
		return checkResult({
			id: 'agent',
			title: 'agent',
			status: 'warn',
			found: `${socketPath} refused this podtop (${String(greeting.reason)})`,
			fix: 'run this podtop with the key the agent uses, or restart the agent with the same version',
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
