import {describe, expect, test} from 'vitest';
import type {WorkerList} from '../../source/model/worker.js';
import {adoptFedWorkers, applyAgentEvents} from '../../source/poll/apply-agent-events.js';
import {createPodtopStore} from '../../source/store/create-store.js';
import {maxFedWorkers, readFedWorkers} from '../../source/store/fed-workers.js';
import {goneKept, trackWorkers} from '../../source/store/worker-track.js';

const storeOf = () => createPodtopStore({mode: 'live', apiHost: 'api.runpod.ai', keyFingerprint: '••••1a2b'});
const list = (readAt: number, ids: readonly string[], uptimeSeconds = 30): WorkerList => ({
	endpointId: 'ep1',
	endpointVersion: 3,
	readAt,
	workers: ids.map(id => ({id, status: 'RUNNING', isStale: false, version: 3, gpuTypeId: 'NVIDIA L40', uptimeSeconds})),
});
// What the agent sends: its own read, tracked across its reads (a restart, a gone worker).
const agentRead = trackWorkers(trackWorkers(undefined, list(1000, ['w1', 'w2'], 300), true), list(31_000, ['w1'], 5), true);
// What a line of the protocol makes of it (undefined fields gone), not a clone.
// eslint-disable-next-line unicorn/prefer-structured-clone
const wire = (value: unknown) => JSON.parse(JSON.stringify(value)) as unknown;

describe("an agent's worker lists off the wire", () => {
	test('are read field by field: what the diagnosis needs (restarts, gone workers) kept, the rest of unknown shape dropped', () => {
		const read = readFedWorkers('ep1', wire({...agentRead, list: {...agentRead.list, workers: [...agentRead.list.workers, {id: 7}, 'junk']}, extra: 'x'}));
		expect(read).toEqual(agentRead);
		expect(read?.tracks.w1?.restarts).toBe(1);
		expect(read?.gone.map(gone => gone.id)).toEqual(['w2']);
		expect(readFedWorkers('ep1', {list: {workers: []}})).toBeUndefined();
		expect(readFedWorkers('ep1', 'workers')).toBeUndefined();
	});

	test('are bounded: workers listed, gone workers and text lengths', () => {
		const many = trackWorkers(
			undefined,
			list(
				1000,
				Array.from({length: maxFedWorkers + 100}, (_, index) => `w${index}`.padEnd(1000, 'x')),
			),
			true,
		);
		const gone = Array.from({length: goneKept + 30}, (_, index) => ({id: `g${index}`, at: 1, status: 'UNHEALTHY', queueWaited: true}));
		const read = readFedWorkers('ep1', wire({...many, gone}))!;
		expect(read.list.workers).toHaveLength(maxFedWorkers);
		expect(read.list.workers[0]!.id.length).toBeLessThanOrEqual(300);
		expect(read.gone).toHaveLength(goneKept);
	});
});

describe('a dashboard fed by an agent', () => {
	test("takes the agent's lists, keeps its own later read of its open endpoint, and lets go of what the agent let go", () => {
		const {store, writes} = storeOf();
		applyAgentEvents([{type: 'workers', at: new Date(31_000).toISOString(), endpointId: 'ep1', workers: wire(agentRead)}], store, writes);
		expect(store.getState().workers.byEndpoint.ep1?.tracks.w1?.restarts).toBe(1);
		// Its own read (the endpoint is open in its details), later than the agent's: an older list from the agent does not replace it.
		writes.setWorkers('ep1', list(40_000, ['w1', 'w3']));
		applyAgentEvents([{type: 'workers', at: new Date(31_000).toISOString(), endpointId: 'ep1', workers: wire(agentRead)}], store, writes);
		expect(store.getState().workers.byEndpoint.ep1?.list.readAt).toBe(40_000);
		// The agent lets the list go (the queue emptied): this process's own later read stays, the fed one goes.
		applyAgentEvents([{type: 'workers', at: new Date(50_000).toISOString(), endpointId: 'ep1', workers: null}], store, writes);
		expect(store.getState().workers.byEndpoint.ep1?.list.readAt).toBe(40_000);
		applyAgentEvents(
			[{type: 'workers', at: new Date(60_000).toISOString(), endpointId: 'ep2', workers: wire({...agentRead, list: {...agentRead.list, endpointId: 'ep2'}})}],
			store,
			writes,
		);
		expect(store.getState().workers.byEndpoint.ep2).toBeDefined();
		applyAgentEvents([{type: 'workers', at: new Date(70_000).toISOString(), endpointId: 'ep2', workers: null}], store, writes);
		expect(store.getState().workers.byEndpoint.ep2).toBeUndefined();
	});

	test("an older agent's snapshot and feed (no workers, no balance) leave the workers and balance as they were; a newer agent's unknown events are skipped", () => {
		const {store, writes} = storeOf();
		writes.setBalance({balance: 12, spendPerHour: 1});
		adoptFedWorkers(undefined, store, writes);
		applyAgentEvents([{type: 'something-newer', at: new Date().toISOString(), workers: 'x'}], store, writes);
		expect(store.getState().workers.byEndpoint).toEqual({});
		expect(store.getState().balance).toEqual({balance: 12, spendPerHour: 1});
		// A newer agent's snapshot with lists: adopted; the next attachment's without that endpoint lets it go.
		adoptFedWorkers(wire({ep1: agentRead}), store, writes);
		expect(store.getState().workers.byEndpoint.ep1).toEqual(agentRead);
		adoptFedWorkers(wire({}), store, writes);
		expect(store.getState().workers.byEndpoint.ep1).toBeUndefined();
		applyAgentEvents([{type: 'balance', at: new Date().toISOString(), balance: {balance: 10.5, spendPerHour: 'lots'}}], store, writes);
		expect(store.getState().balance).toEqual({balance: 12, spendPerHour: 1});
		applyAgentEvents([{type: 'balance', at: new Date().toISOString(), balance: {balance: 10.5, spendPerHour: 2}}], store, writes);
		expect(store.getState().balance).toEqual({balance: 10.5, spendPerHour: 2});
	});
});
