import {mkdtempSync, rmSync} from 'node:fs';
import {tmpdir} from 'node:os';
import {join} from 'node:path';
import {afterAll, beforeAll, expect, test} from 'vitest';
import type {AgentFeature} from '../../source/api/agent-protocol.js';
import {parseAlertRules} from '../../source/config/alert-rules.js';
import type {Engine} from '../../source/engine/create-engine.js';
import type {SpendReport} from '../../source/engine/spend-report.js';
import type {SpendQuery, SpendSplit} from '../../source/model/spend.js';
import {createAgentSpend} from '../../source/serve/agent-spend.js';
import {serveAgent, type AgentServer} from '../../source/serve/agent-server.js';
import {engineFor, simStats} from '../helpers/engine.js';
import {startTestSim, waitFor, type TestSim} from '../helpers/sim-client.js';

const key = 'rpa_AGENTBILLSSECRET000011112222333344';
const roomy = {minute: 10_000, hour: 100_000, day: 1_000_000};
const dayMs = 86_400_000;
const folder = mkdtempSync(join(tmpdir(), 'podtop-agent-bills-'));
let sim: TestSim;
let agent: Engine;
let server: AgentServer;
const clients: Engine[] = [];

beforeAll(async () => {
	process.env.XDG_RUNTIME_DIR = join(folder, 'run');
	sim = await startTestSim({apiKey: key, podCount: 12, restQuota: roomy});
	agent = await engineFor(sim, {allVisible: true, poll: ['endpoints', 'pods', 'gpus'], history: {directory: join(folder, 'history')}, record: true});
	// As `podtop agent` serves it: its history, and the bills read for its clients.
	server = await serveAgent({
		store: agent.store,
		socketPath: agent.agentLink!.socketPath,
		secret: agent.agentLink!.secret,
		history: {
			reader: agent.history.reader,
			record: agent.history.record,
			features: (): AgentFeature[] => ['history', 'record', 'bills'],
			spend: createAgentSpend(agent.bills),
		},
	});
	agent.start();
}, 40_000);

afterAll(async () => {
	await Promise.all(clients.map(async client => client.close()));
	await server.close();
	await agent.close();
	await sim.close();
	rmSync(folder, {recursive: true, force: true});
});

/** Billing requests the simulator served so far, all routes. */
async function billingRequests(): Promise<number> {
	const rest = (await simStats(sim)).rest ?? {};
	return Object.entries(rest).reduce((sum, [route, stats]) => sum + (route.includes('/billing') ? stats.requests : 0), 0);
}

const cents = (report: SpendReport) => ({
	total: Math.round(report.total * 100),
	rows: report.rows.map(row => [row.from, row.id ?? '', row.name ?? '', Math.round(row.total * 100)]),
});

test("dashboards attached to the agent read the bills through it: the Spend pane's reads and the budget's month send no billing request of their own", async () => {
	const rules = parseAlertRules('[[rule]]\nname = "budget"\nkind = "budget"\nmonthly = 1\n', 'alerts.toml');
	for (let index = 0; index < 3; index++) {
		clients.push(await engineFor(sim, {agent: true, history: {directory: join(folder, 'history')}, alerts: {rules}}));
	}

	for (const client of clients) {
		client.start();
	}

	await waitFor(() => clients.every(client => client.store.getState().via === 'agent'), 20_000);
	// Each client's budget forecast comes from the month's bills, read through the agent.
	await waitFor(() => clients.every(client => client.store.getState().alerts.some(alert => alert.rule === 'budget')), 20_000);
	const afterMonth = await billingRequests();
	// The agent read the month once (one route) for three clients; each reading it itself would be three.
	expect(afterMonth).toBe(1);

	const today = Math.floor(Date.now() / dayMs) * dayMs;
	const query: SpendQuery = {bucketSize: 'day', from: today - 30 * dayMs, to: today + dayMs};
	const splits: SpendSplit[] = ['category', 'pod', 'endpoint', 'volume'];
	// The pane of each of three dashboards, at once: 30 days by category and by pod, endpoint and volume.
	const reports = await Promise.all(clients.map(async client => Promise.all(splits.map(async split => client.spend(query, split)))));
	// One read per route by the agent for all three (at most one more for today's bucket, the month's read having kept it).
	expect(await billingRequests()).toBeLessThanOrEqual(afterMonth + 4);
	expect(reports[0]![0]!.rows).toHaveLength(31);
	expect(reports[0]![1]!.rows.some(row => row.name !== '')).toBe(true);
	expect(reports[1]!.map(report => cents(report))).toEqual(reports[0]!.map(report => cents(report)));
	// What the agent read is what a direct read says, to the cent.
	const direct = await agent.spend(query, 'pod');
	expect(cents(direct)).toEqual(cents(reports[0]![1]!));
}, 60_000);
