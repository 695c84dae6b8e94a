import {mkdtempSync, rmSync} from 'node:fs';
import {tmpdir} from 'node:os';
import {join} from 'node:path';
import {afterAll, beforeAll, describe, expect, test} from 'vitest';
import type {Engine} from '../../source/engine/create-engine.js';
import {historyFileName, openHistoryForReading} from '../../source/history/history-file.js';
import {createSqliteReader} from '../../source/history/sqlite-reader.js';
import {serveAgent, type AgentServer} from '../../source/serve/agent-server.js';
import {engineFor} from '../helpers/engine.js';
import {gqlData} from '../helpers/graphql-client.js';
import {startTestSim, waitFor, type TestSim} from '../helpers/sim-client.js';

const key = 'rpa_HANDOVERSECRET0000111122223333';
const runtime = mkdtempSync(join(tmpdir(), 'podtop-hand-over-runtime-'));
const directory = mkdtempSync(join(tmpdir(), 'podtop-hand-over-history-'));
let sim: TestSim;

type Agent = {readonly engine: Engine; readonly server: AgentServer; readonly start: () => void; readonly close: () => Promise<void>};

/**
`podtop agent`'s pieces, as `runAgent` puts them together: a recording engine that polls every list,
served on its socket before it starts polling (a client that attaches at once gets a picture with
nothing listed yet). `start` starts the polling.
*/
async function serveAnAgent(): Promise<Agent> {
	const engine = await engineFor(sim, {allVisible: true, poll: ['endpoints', 'pods', 'gpus'], history: {directory}, record: true});
	const {secret, socketPath} = engine.agentLink!;
	const server = await serveAgent({
		store: engine.store,
		socketPath,
		secret,
		history: {
			reader: engine.history.reader,
			record: engine.history.record,
			features() {
				const {state} = engine.history.status.getState();
				return state === 'off' ? [] : state === 'remote' ? ['history'] : ['history', 'record'];
			},
		},
	});
	return {
		engine,
		server,
		start: engine.start,
		async close() {
			await server.close();
			await engine.close();
		},
	};
}

beforeAll(async () => {
	process.env.XDG_RUNTIME_DIR = runtime;
	sim = await startTestSim({apiKey: key, load: true, speed: 5});
});

afterAll(async () => {
	await sim?.close();
	for (const folder of [runtime, directory]) {
		rmSync(folder, {recursive: true, force: true});
	}
});

describe('a hand-over between recorders', () => {
	test('restarting the agent under an attached dashboard records no deletion and no gap: every pod and GPU type is there at every moment', async () => {
		const fleet = await gqlData(sim, '{ myself { pods { id } } gpuTypes { id } }');
		const podIds: string[] = fleet.myself.pods.map((pod: {id: string}) => pod.id);
		const gpuIds: string[] = fleet.gpuTypes.map((gpu: {id: string}) => gpu.id);
		expect(podIds.length).toBeGreaterThan(0);
		expect(gpuIds.length).toBeGreaterThan(0);

		// The agent records; the dashboard attaches to it and stands by.
		const agent = await serveAnAgent();
		agent.start();
		await waitFor(() => agent.engine.history.status.getState().state === 'recording', 30_000);
		await waitFor(() => agent.engine.store.getState().gpus.order.length === gpuIds.length && agent.engine.store.getState().pods.order.length > 0, 30_000);
		// Written (a flush follows each burst of changes): from here on, every moment is recorded.
		await new Promise(resolve => setTimeout(resolve, 500));
		const begin = Date.now();
		const dashboard = await engineFor(sim, {agent: true, record: true, history: {directory}});
		let agentAgain: Agent | undefined;
		try {
			dashboard.start();
			await waitFor(() => dashboard.store.getState().via === 'agent' && dashboard.history.status.getState().state === 'reading', 30_000);

			// The agent stops: the dashboard polls and records on its own.
			await agent.close();
			await waitFor(() => dashboard.store.getState().via === 'direct' && dashboard.history.status.getState().state === 'recording', 30_000);
			await waitFor(() => dashboard.store.getState().endpoints.listedBy === 'direct', 30_000);

			// Back: the dashboard attaches to its picture before it has listed anything (it serves before it polls), stands by, and the agent records again.
			agentAgain = await serveAnAgent();
			await waitFor(() => dashboard.store.getState().via === 'agent', 30_000);
			expect(agentAgain.engine.store.getState().gpus.updatedAt).toBeUndefined();
			agentAgain.start();
			const again = agentAgain;
			await waitFor(() => again.engine.history.status.getState().state === 'recording', 30_000);
			await waitFor(() => again.engine.store.getState().gpus.order.length === gpuIds.length, 30_000);
			// Its lists written (a flush follows each burst of changes).
			await new Promise(resolve => setTimeout(resolve, 500));
		} finally {
			await dashboard.close();
			await agentAgain?.close();
		}

		const end = Date.now();
		const file = join(directory, historyFileName({apiUrl: `${sim.url}/v2`, graphqlUrl: `${sim.url}/graphql`, apiKey: key}));
		const reader = createSqliteReader({db: openHistoryForReading(file)!, file});
		try {
			const events = await reader.events(begin - 60_000, end + 1000);
			expect(events.filter(event => event.type === 'deleted').map(event => `${event.type} ${event.kind} ${event.name}`)).toEqual([]);
			const things = await reader.things();
			expect(things.filter(thing => thing.deletedAt !== undefined).map(thing => thing.name)).toEqual([]);

			// No gap: at every moment of the hand-overs the account is there whole, and each GPU type has a point in each 5 s.
			const {from} = (await reader.span())!;
			for (let at = Math.max(from, begin); at <= end - 1000; at += 1000) {
				const moment = await reader.stateAt(at);
				expect(moment?.gpus.order.toSorted(), `GPU types at ${new Date(at).toISOString()}`).toEqual(gpuIds.toSorted());
				expect(moment?.pods.order.toSorted(), `pods at ${new Date(at).toISOString()}`).toEqual(podIds.toSorted());
			}

			const series = await reader.series({kind: 'gpu', keys: gpuIds, from: begin, to: end});
			expect(series.map(each => each.key).toSorted()).toEqual(gpuIds.toSorted());
		} finally {
			await reader.close();
		}
	}, 180_000);
});
