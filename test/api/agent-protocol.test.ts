import {expect, test} from 'vitest';
import {isHistoryAnswer, protocolLine, readAgentLine, readClientLine, type AgentLine, type ClientLine} from '../../source/api/agent-protocol.js';
import {createAgentRequests} from '../../source/api/agent-requests.js';

const line = (text: string) => text.replace(/\n$/, '');

test('what one end writes the other reads as the same message, each kind of line', () => {
	const client: ClientLine[] = [
		{type: 'history', id: 1, method: 'series', args: [{kind: 'pod', keys: ['p1']}]},
		{type: 'record', events: [{type: 'job', at: 1}]},
	];
	for (const message of client) {
		expect(readClientLine(line(protocolLine(message)))).toEqual({message});
	}

	const agent: AgentLine[] = [
		{type: 'history', id: 2, result: {points: []}},
		{type: 'history', id: 3, result: null},
		{type: 'history', id: 4, error: 'the agent keeps no history of this account'},
		{type: 'tick', at: '2025-01-01T00:00:00.000Z', connection: {}},
		{type: 'pod', at: '2025-01-01T00:00:00.000Z', pod: {id: 'p1'}},
	];
	for (const message of agent) {
		expect(readAgentLine(line(protocolLine(message)))).toEqual({message});
	}

	// A request without arguments has none.
	expect(readClientLine('{"type":"history","id":5,"method":"info"}')).toEqual({message: {type: 'history', id: 5, method: 'info', args: []}});
});

test('a line of neither end is refused with a sentence; a client line of a type the agent does not know is ignored (a newer client)', () => {
	expect(readClientLine('not json')).toEqual({invalid: 'a line that is not a JSON object with a type'});
	expect(readClientLine('[1]')).toEqual({invalid: 'a line that is not a JSON object with a type'});
	expect(readClientLine('{"type":"history","id":1.5,"method":"series","args":[]}')).toHaveProperty('invalid');
	expect(readClientLine('{"type":"history","id":1,"method":"drop","args":[]}')).toHaveProperty('invalid');
	expect(readClientLine('{"type":"record","events":{}}')).toEqual({invalid: 'a record line without a list of events'});
	expect(readClientLine('{"type":"later"}')).toEqual({ignored: true});
	expect(readAgentLine('null')).toEqual({invalid: 'sent a line that is not a JSON object with a type'});
	// An answer with neither a result nor an error answers nothing: it is not taken for an empty result.
	expect(readAgentLine('{"type":"history","id":1}')).toHaveProperty('invalid');
	expect(readAgentLine('{"type":"history","id":"1","result":[]}')).toHaveProperty('invalid');
	expect(readAgentLine('{"type":"tick"}')).toEqual({invalid: 'sent a tick without its time'});
});

test('a request is answered by the answer of its id, read as the agent wrote it', async () => {
	const sent: string[] = [];
	const requests = createAgentRequests(
		text => sent.push(text) > 0,
		() => 'the agent',
	);
	const answer = requests.request('info', [], 5000);
	const request = readClientLine(line(sent[0]!));
	expect(request).toEqual({message: {type: 'history', id: 1, method: 'info', args: []}});
	const reply = readAgentLine(line(protocolLine({type: 'history', id: 1, result: {oldest: 0}})));
	if (!('message' in reply) || !isHistoryAnswer(reply.message)) {
		throw new Error('not read as an answer');
	}

	expect(requests.answer(reply.message)).toBe(true);
	await expect(answer).resolves.toEqual({oldest: 0});
});
