import {expect, test} from 'vitest';
import {agentSecret, createAgentHandshake, createClientHandshake, type AgentStep, type ClientStep} from '../../source/api/agent-handshake.js';
import {maxAgentLineLength, maxHelloBytes} from '../../source/api/agent-protocol.js';

const key = 'rpa_HANDSHAKESECRET00001111222233334444';
const secret = agentSecret(key);
const text = (step: AgentStep | ClientStep) => ('answer' in step ? step.answer.trim() : JSON.stringify(step));

test('client and agent holding the key prove it to each other; the client reads long lines only after the agent proved itself', () => {
	const client = createClientHandshake(secret);
	const agent = createAgentHandshake(secret);
	expect(client.maxLineLength()).toBe(maxHelloBytes);
	const challenge = agent(client.hello.trim());
	const proof = client.take(text(challenge));
	expect(client.maxLineLength()).toBe(maxAgentLineLength);
	expect(agent(text(proof))).toEqual({attached: {feed: true}});
	expect(client.take('{"type":"snapshot","account":{}}')).toEqual({greeting: {type: 'snapshot', account: {}}});
	// Nothing derived from the key that holds beyond this connection: neither the key, nor the secret, nor a fixed proof.
	for (const line of [client.hello, text(challenge), text(proof)]) {
		expect(line).not.toContain(key);
		expect(line).not.toContain(secret);
	}
});

test('a proof heard on one connection is worth nothing on another (a listener has nothing to replay)', () => {
	const heard = createClientHandshake(secret);
	const proof = heard.take(text(createAgentHandshake(secret)(heard.hello.trim())));
	// The listener replays the hello and the proof to the agent: a fresh challenge, and the old proof does not answer it.
	const agent = createAgentHandshake(secret);
	agent(heard.hello.trim());
	expect(agent(text(proof))).toMatchObject({refused: 'another account'});
});

test('an agent without the key is found out before the client proves anything, and a client without it is refused', () => {
	const client = createClientHandshake(secret);
	const impostor = createAgentHandshake(agentSecret('rpa_SOMEONEELSE'));
	expect(client.take(text(impostor(client.hello.trim())))).toEqual({failure: "did not prove it holds this account's key: not trusted"});
	// A fake that skips the challenge (the old protocol's snapshot at once) is not adopted either.
	expect(createClientHandshake(secret).take('{"type":"snapshot","account":{}}')).toEqual({failure: 'does not speak podtop (protocol 2)'});

	const stranger = createClientHandshake(agentSecret('rpa_SOMEONEELSE'));
	const agent = createAgentHandshake(secret);
	const challenge = agent(stranger.hello.trim());
	// The stranger sees the agent is not of its account; one that answered anyway is refused.
	expect(stranger.take(text(challenge))).toMatchObject({failure: expect.stringContaining('did not prove')});
	expect(agent(JSON.stringify({type: 'proof', proof: '0'.repeat(64)}))).toMatchObject({refused: 'another account'});
});

test('a line over the bound is a sentence, before and after the proof', () => {
	const client = createClientHandshake(secret);
	expect(client.take(undefined)).toEqual({failure: `sent a line over 4 KB before proving it holds this account's key: not an agent of this podtop`});
	client.take(text(createAgentHandshake(secret)(client.hello.trim())));
	expect(client.take(undefined)).toEqual({failure: 'sent a line over 48 MB'});
});

test('an older peer fails the handshake in its first line: an old client is refused, an old agent is said to be one', () => {
	const agent = createAgentHandshake(secret);
	const oldHello = JSON.stringify({type: 'hello', protocol: 1, account: 'a fixed hash of the key'});
	expect(agent(oldHello)).toEqual({refused: 'protocol 2 only', answer: '{"type":"refused","reason":"protocol 2 only"}\n'});
	expect(createClientHandshake(secret).take('{"type":"refused","reason":"protocol 1 only"}')).toEqual({
		failure: "speaks an older protocol (1): restart `podtop agent` with this podtop's version",
	});
	// A refusal's own words are the peer's: not repeated.
	expect(createClientHandshake(secret).take(String.raw`{"type":"refused","reason":"\u001b[2Jrun rm -rf"}`)).toEqual({failure: 'refused this podtop'});
});
