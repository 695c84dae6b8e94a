import {mkdtempSync, rmSync} from 'node:fs';
import {tmpdir} from 'node:os';
import {join} from 'node:path';
import {afterAll, expect, test} from 'vitest';
import type {Engine} from '../../source/engine/create-engine.js';
import {historyFileName, openHistoryForWriting} from '../../source/history/history-file.js';
import {createRecorder} from '../../source/history/recorder.js';
import {createPodtopStore} from '../../source/store/create-store.js';
import type {EndpointFigures} from '../../source/store/types.js';
import {engineFor} from '../helpers/engine.js';
import {startTestSim, waitFor, waitForStatus, type TestSim} from '../helpers/sim-client.js';

let sim: TestSim | undefined;
let engine: Engine | undefined;
const folder = mkdtempSync(join(tmpdir(), 'podtop-seed-'));
afterAll(async () => {
	await engine?.close();
	await sim?.close();
	rmSync(folder, {recursive: true, force: true});
});

test("started with the last minutes recorded, a dashboard shows each endpoint's rate, failures and drain at its first poll of the endpoint, over real HTTP", async () => {
	sim = await startTestSim({endpoints: [{id: 'ep-busy', workersMin: 1}, {id: 'ep-idle'}]});
	for (let job = 0; job < 4; job++) {
		await waitForStatus(sim, 'ep-busy', await sim.run('ep-busy', {job}), 'COMPLETED', 20_000);
	}

	// The five minutes before this dashboard started, as the podtop before it recorded them (every 10 s): ep-busy's jobs done
	// but the last, ep-idle's none.
	const directory = join(folder, 'history');
	const file = join(directory, historyFileName({apiUrl: `${sim.url}/v2`, graphqlUrl: `${sim.url}/graphql`, apiKey: sim.apiKey}));
	const {store, writes} = createPodtopStore({mode: 'live', apiHost: 'example', keyFingerprint: '••••abcd'});
	const {db} = openHistoryForWriting(file);
	const started = Date.now();
	let now = started - 300_000;
	const recorder = createRecorder({store, db, file, now: () => now, live: false});
	writes.setEndpoints(
		['ep-busy', 'ep-idle'].map(id => ({id, name: id, workersMin: 0, workersMax: 3})),
		now,
	);
	for (; now < started - 5000; now += 10_000) {
		for (const id of ['ep-busy', 'ep-idle']) {
			const completed = id === 'ep-busy' ? Math.floor((3 * (now - started + 300_000)) / 300_000) : 0;
			writes.setHealth(
				id,
				{
					jobs: {inQueue: 0, inProgress: 0, completed, failed: 0, retried: 0},
					workers: {running: 0, idle: 1, initializing: 0, ready: 1, throttled: 0, unhealthy: 0},
				},
				now,
			);
		}

		recorder.flush(now);
	}

	recorder.stop();
	db.close();

	engine = await engineFor(sim, {poll: ['endpoints'], allVisible: true, record: true, history: {directory}});
	// Each endpoint's figures as they were when its health first came in.
	const first = new Map<string, EndpointFigures>();
	engine.store.subscribe(({endpoints}) => {
		for (const [id, endpoint] of Object.entries(endpoints.byId)) {
			if (endpoint.health && !first.has(id)) {
				first.set(id, endpoint.figures);
			}
		}
	});
	engine.start();
	await waitFor(() => first.size === 2, 20_000);
	// Four jobs since the oldest sample, some 5 minutes before: about 0.8 a minute (what was recorded in the file, and the poll now).
	expect(first.get('ep-busy')!.throughputPerMinute).toBeGreaterThan(0.5);
	expect(first.get('ep-busy')).toMatchObject({failureRate: 0, drainEtaSeconds: 0});
	expect(first.get('ep-idle')).toMatchObject({throughputPerMinute: 0, drainEtaSeconds: 0});
}, 60_000);
