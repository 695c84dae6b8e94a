import {createHash, createHmac, randomBytes, timingSafeEqual} from 'node:crypto';
import {agentProtocolVersion, maxAgentLineLength, maxHelloBytes, readGreeting, type AgentGreeting} from './agent-protocol.js';

/**
How a client and an agent prove to each other that both hold the account's key, without either
sending anything derived from the key that is valid outside the connection:

1. client → agent: `{"type":"hello","protocol":2,"nonce":C,"feed":…}`
2. agent → client: `{"type":"challenge","protocol":2,"nonce":A,"proof":HMAC(secret, "agent" A C)}`
3. client → agent: `{"type":"proof","proof":HMAC(secret, "client" C A)}` (or it hangs up: no key)
4. agent → client: the snapshot (or `attached`), or `refused`

C and A are 32 random bytes each, fresh per connection, so a proof heard on one connection
answers no other (a listener has nothing to replay); the labels keep one side's proof from ever
serving as the other's. A relay between a client and the real agent would need to reach the
agent's socket, which its folder keeps to its owner (or its group). An older peer (protocol 1,
which sent a fixed hash of the key) is refused, and falls back to polling.
*/

/** The HMAC key both sides derive from the API key: never sent, and unlike protocol 1's proof never was. */
export function agentSecret(apiKey: string): string {
	return createHash('sha256').update(['podtop agent handshake', apiKey].join('\0')).digest('hex');
}

const nonceOf = (value: unknown): string | undefined => (typeof value === 'string' && /^[\da-f]{64}$/.test(value) ? value : undefined);

const freshNonce = () => randomBytes(32).toString('hex');

const mac = (secret: string, label: 'agent' | 'client', first: string, second: string) =>
	createHmac('sha256', secret).update(['podtop agent proof', label, first, second].join('\0')).digest('hex');

/** Compares a proof in constant time. */
const matches = (expected: string, given: unknown) =>
	typeof given === 'string' && given.length === expected.length && timingSafeEqual(Buffer.from(expected), Buffer.from(given));

const line = (message: unknown) => `${JSON.stringify(message)}\n`;

const isRecord = (value: unknown): value is Record<string, unknown> => typeof value === 'object' && value !== null && !Array.isArray(value);

const parse = (text: string | undefined): Record<string, unknown> | undefined => {
	try {
		const value: unknown = text === undefined ? undefined : JSON.parse(text);
		return isRecord(value) ? value : undefined;
	} catch {
		return undefined;
	}
};

/** What a client makes of a line heard before the agent greeted it: a line to answer, the greeting, or why it hangs up (a sentence). */
export type ClientStep = {readonly answer: string} | {readonly greeting: AgentGreeting} | {readonly failure: string};

export type ClientHandshake = {
	/** The first line to send, once connected. */
	readonly hello: string;
	/** The longest line to read now: a few KB until the agent has proven it holds the key, `maxAgentLineLength` after. */
	readonly maxLineLength: () => number;
	/** Takes one line (undefined: one over `maxLineLength()`) heard before the greeting. */
	readonly take: (text: string | undefined) => ClientStep;
};

/** The reasons an agent gives for refusing that a client says in its own words; any other is not repeated (it is the peer's text). */
const refusals: Readonly<Record<string, string>> = {
	'another account': 'refused this podtop (another account)',
	[`protocol ${agentProtocolVersion - 1} only`]: `speaks an older protocol (1): restart \`podtop agent\` with this podtop's version`,
};

/** A client's half of the handshake. `feed: false`: no snapshot, events or ticks (a connection for history or record lines only). */
export function createClientHandshake(secret: string, {feed = true}: {readonly feed?: boolean} = {}): ClientHandshake {
	const nonce = freshNonce();
	let proven = false;
	return {
		hello: line({type: 'hello', protocol: agentProtocolVersion, nonce, ...(feed ? {} : {feed: false})}),
		maxLineLength: () => (proven ? maxAgentLineLength : maxHelloBytes),
		take(text) {
			if (text === undefined) {
				return {
					failure: proven
						? `sent a line over ${maxAgentLineLength / 1024 / 1024} MB`
						: `sent a line over ${maxHelloBytes / 1024} KB before proving it holds this account's key: not an agent of this podtop`,
				};
			}

			const message = parse(text);
			if (message?.type === 'refused') {
				const reason = typeof message.reason === 'string' ? refusals[message.reason] : undefined;
				return {failure: reason ?? 'refused this podtop'};
			}

			if (!proven) {
				const theirs = nonceOf(message?.nonce);
				if (message?.type !== 'challenge' || theirs === undefined) {
					return {failure: 'does not speak podtop (protocol 2)'};
				}

				if (!matches(mac(secret, 'agent', theirs, nonce), message.proof)) {
					return {failure: "did not prove it holds this account's key: not trusted"};
				}

				proven = true;
				return {answer: line({type: 'proof', proof: mac(secret, 'client', nonce, theirs)})};
			}

			const greeting = readGreeting(message);
			return greeting ? {greeting} : {failure: 'does not speak podtop (protocol 2)'};
		},
	};
}

/** What an agent makes of a line heard before it attached a client: a line to answer, the client attached, or refused (the line to send, and why). */
export type AgentStep = {readonly answer: string} | {readonly attached: {readonly feed: boolean}} | {readonly refused: string; readonly answer: string};

/** An agent's half of the handshake, for one connection. */
export function createAgentHandshake(secret: string): (text: string | undefined) => AgentStep {
	const nonce = freshNonce();
	let theirs: string | undefined;
	let feed = true;
	const refuse = (reason: string): AgentStep => ({refused: reason, answer: line({type: 'refused', reason})});
	return text => {
		const message = parse(text);
		if (theirs === undefined) {
			if (message?.type !== 'hello') {
				return refuse('say hello first');
			}

			if (message.protocol !== agentProtocolVersion) {
				return refuse(`protocol ${agentProtocolVersion} only`);
			}

			theirs = nonceOf(message.nonce);
			if (theirs === undefined) {
				return refuse('say hello first');
			}

			feed = message.feed !== false;
			return {answer: line({type: 'challenge', protocol: agentProtocolVersion, nonce, proof: mac(secret, 'agent', nonce, theirs)})};
		}

		if (message?.type !== 'proof' || !matches(mac(secret, 'client', theirs, nonce), message.proof)) {
			return refuse('another account');
		}

		return {attached: {feed}};
	};
}
