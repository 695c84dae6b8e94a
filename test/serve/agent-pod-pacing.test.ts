import {mkdtempSync} from 'node:fs';
import {tmpdir} from 'node:os';
import {join} from 'node:path';
import {afterAll, expect, test} from 'vitest';
import type {PodRecord} from '../../source/model/pod.js';
import {serveAgent, type AgentServer} from '../../source/serve/agent-server.js';
import {createPodtopStore} from '../../source/store/create-store.js';
import {rawAgentClient} from '../helpers/agent-wire.js';
import {waitFor} from '../helpers/sim-client.js';

const secret = 'a secret both sides hold';
const pods = 100;
const cleanups: Array<() => Promise<void> | void> = [];

afterAll(async () => {
	for (const cleanup of cleanups.reverse()) {
		await cleanup();
	}
});

const pod = (index: number, gpuUtilPercent: number, desiredStatus = 'RUNNING'): PodRecord => ({
	id: `pod${index}`,
	name: `pod ${index}`,
	desiredStatus,
	costPerHr: 0.69,
	gpuCount: 1,
	env: ['A=1'],
	machine: {gpuDisplayName: 'RTX 4090', location: 'EU-RO-1'},
	runtime: {uptimeInSeconds: 60 + gpuUtilPercent, gpus: [{id: 'gpu0', gpuUtilPercent, memoryUtilPercent: 40}], container: {cpuPercent: 5, memoryPercent: 9}},
});

test("a pod's runtime figures alone reach clients at the pace of a dashboard's own list reads, the newest only; any other change at once", async () => {
	const directory = mkdtempSync(join(tmpdir(), 'podtop-pod-pacing-'));
	const {store, writes} = createPodtopStore({mode: 'live', apiHost: 'api.runpod.ai', keyFingerprint: '••••1a2b'});
	writes.setPods(
		Array.from({length: pods}, (_, index) => pod(index, 0)),
		Date.now(),
	);
	// A flush every 3 s: the five reads below (written at once) fall between two.
	const server: AgentServer = await serveAgent({store, socketPath: join(directory, 'agent.sock'), secret, podRuntimeMs: () => 3000});
	cleanups.push(async () => server.close());
	const client = rawAgentClient(server.socketPath, secret);
	cleanups.push(() => {
		client.socket.destroy();
	});
	await waitFor(() => client.lines.find(line => line.type === 'snapshot'));

	// Five reads of the list in which every pod's utilisation moved (at 10,000 pods the agent reads them every 5 s), the last with one pod stopped.
	const flushesBefore = client.lines.filter(line => line.type === 'pod').length;
	for (let read = 1; read <= 5; read++) {
		writes.setPods(
			Array.from({length: pods}, (_, index) => pod(index, read * 10, read === 5 && index === 7 ? 'EXITED' : 'RUNNING')),
			Date.now(),
		);
	}

	const podEvents = () => client.lines.filter(line => line.type === 'pod').slice(flushesBefore);
	// The stopped pod at once, with its newest figures.
	const stopped = await waitFor(() => podEvents().find(line => line.pod.id === 'pod7'));
	expect(stopped.pod).toEqual(
		expect.objectContaining({desiredStatus: 'EXITED', runtime: expect.objectContaining({gpus: [expect.objectContaining({gpuUtilPercent: 50})]})}),
	);
	// The others with the next flush, each once, with the last read's figures: 100 events where every read sent was 500.
	await waitFor(() => podEvents().length >= pods, 10_000);
	await new Promise(resolve => setTimeout(resolve, 200));
	const events = podEvents();
	expect(events).toHaveLength(pods);
	expect(new Set(events.map(line => line.pod.id)).size).toBe(pods);
	expect(events.every(line => line.pod.runtime.gpus[0].gpuUtilPercent === 50)).toBe(true);
}, 30_000);
