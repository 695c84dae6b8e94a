import {isTerminalStatus} from '../api/job-types.js';
import type {ProbeRule} from '../config/alert-rules.js';
import {sanitizeLine} from '../format/sanitize.js';
import type {EventRow} from '../history/event-rows.js';
import {probeEvent, probeFromEvent} from '../history/probe-events.js';
import type {HistoryReader} from '../history/history-types.js';
import {createColdStartJudge, type ColdStartJudge} from '../lib/cold-start.js';
import {createLoop, type Loop} from '../poll/loop.js';
import type {PodtopStore, StoreWrites} from '../store/create-store.js';
import {jobKey} from '../store/job-key.js';
import type {ProbeOutcome, ProbeSample} from '../store/types.js';
import type {PerformResult} from './perform.js';
import {probeTargets} from './probe-targets.js';

/** How far back the probes recorded before are read at the start (the Endpoints pane's windows, the cold-start rule's warm median). */
export const probeSeedMs = 7 * 86_400_000;
/** The loop looks at least this often: a probe's job is followed by the jobs loop, and the loop notices its end. */
const tickMs = 1000;

type Options = {
	readonly store: PodtopStore;
	readonly writes: StoreWrites;
	readonly rules: readonly ProbeRule[];
	/** Sends one probe through `engine.perform` (audited, within the /run budget, never sent again); undefined: read-only, the loop only reads back the probes recorded. */
	readonly send: ((endpointId: string, input: Readonly<Record<string, unknown>>) => Promise<PerformResult<'endpoint.probe'>>) | undefined;
	/** The history to read earlier probes from (undefined: none yet), and to record each probe in. */
	readonly reader: () => HistoryReader | undefined;
	readonly record: (events: readonly EventRow[]) => void;
	readonly now?: () => number;
};

/** A probe under way: its job is tracked in the store, followed by the jobs loop. */
type InFlight = {readonly rule: ProbeRule; readonly endpointId: string; readonly at: number; readonly jobKey: string; readonly jobId: string};

/**
Sends each `[[probe]]` rule's small job to each endpoint it matches on its cadence, follows it to
its end (the jobs loop polls its status by state, within the budgets), and records its delay,
execution time and whether it met a cold worker: in the store (the Endpoints pane, the latency
rules) and in history (a `probe` event). One probe per rule and endpoint at a time; a dashboard fed
by an agent sends none (the agent does). A self-scheduling loop: `stop` leaves no timer.
*/
export function createProbeLoop({store, writes, rules, send, reader, record, now = Date.now}: Options): Loop & {
	/** Settles once the probes being sent have their answer (and their audit line): closing waits for it. */
	readonly settle: () => Promise<void>;
} {
	/** When each (rule, endpoint) is next due; the first probe goes out at once. */
	const dueAt = new Map<string, number>();
	const inFlight = new Map<string, InFlight>();
	/** Sends under way (perform not yet answered). */
	const sending = new Map<string, Promise<void>>();
	const judges = new Map<string, ColdStartJudge>();
	let seeded = false;

	const judgeOf = (endpointId: string): ColdStartJudge => {
		let judge = judges.get(endpointId);
		if (!judge) {
			// Seeded from the probes known (recorded before, or sent by an agent): their warm delays make the median.
			const seed = (store.getState().probes.byEndpoint[endpointId] ?? []).flatMap(probe =>
				probe.outcome === 'ok' && probe.delayMs !== undefined ? [probe.delayMs] : [],
			);
			judge = createColdStartJudge({seed: seed.slice(-64)});
			judges.set(endpointId, judge);
		}

		return judge;
	};

	const finish = (endpointId: string, rule: ProbeRule, sample: ProbeSample) => {
		writes.addProbes([{endpointId, probe: sample}]);
		const name = store.getState().endpoints.byId[endpointId]?.record.name ?? endpointId;
		record([probeEvent(endpointId, name, rule.name, sample)]);
	};

	const seed = async () => {
		const history = reader();
		if (!history) {
			return;
		}

		seeded = true;
		try {
			const at = now();
			const events = await history.events(at - probeSeedMs, at, 20_000);
			writes.addProbes(events.flatMap(event => probeFromEvent(event) ?? []));
		} catch {
			// No earlier probes to show: the new ones make the figures.
		}
	};

	const sendOne = async (pair: string, rule: ProbeRule, endpointId: string, send: NonNullable<Options['send']>) => {
		const at = now();
		dueAt.set(pair, at + rule.everyMs);
		try {
			const result = await send(endpointId, rule.input);
			const id = result.value?.id;
			if (result.outcome === 'ok' && id) {
				inFlight.set(pair, {rule, endpointId, at, jobKey: jobKey(endpointId, id), jobId: id});
				return;
			}

			const outcome: ProbeOutcome = result.outcome === 'ambiguous' ? 'ambiguous' : 'refused';
			finish(endpointId, rule, {at, outcome, error: sanitizeLine(result.message).slice(0, 300)});
		} catch (error) {
			// Perform answers every failure itself; anything else is said in the probe, never thrown at the loop.
			finish(endpointId, rule, {at, outcome: 'refused', error: sanitizeLine(error instanceof Error ? error.message : String(error)).slice(0, 300)});
		} finally {
			sending.delete(pair);
		}
	};

	/** The probes whose job ended, or that ran out of time, are recorded and let go. */
	const collect = () => {
		const {jobs} = store.getState();
		for (const [pair, probe] of inFlight) {
			const job = jobs.byKey.get(probe.jobKey);
			const base = {at: probe.at, jobId: probe.jobId};
			if (job && isTerminalStatus(job.status)) {
				const ok = job.status === 'COMPLETED';
				const delayMs = job.delayTime;
				finish(probe.endpointId, probe.rule, {
					...base,
					...(delayMs === undefined ? {} : {delayMs}),
					...(job.executionTime === undefined ? {} : {executionMs: job.executionTime}),
					...(ok && delayMs !== undefined ? {cold: judgeOf(probe.endpointId).judge(delayMs, job.workerId)} : {}),
					outcome: ok ? 'ok' : 'failed',
					...(ok ? {} : {error: sanitizeLine(job.error ?? job.status).slice(0, 300)}),
				});
			} else if (!job || job.lastErrorKind === 'not-found') {
				finish(probe.endpointId, probe.rule, {...base, outcome: 'lost', error: job ? 'the service no longer knows the job' : 'no longer tracked'});
			} else if (now() - probe.at > probe.rule.timeoutMs) {
				finish(probe.endpointId, probe.rule, {
					...base,
					outcome: 'timeout',
					error: `not done in ${Math.round(probe.rule.timeoutMs / 1000)} s (status ${job.status})`,
				});
			} else {
				continue;
			}

			inFlight.delete(pair);
			// Recorded (its status changes too, as any tracked job's): a probe every few minutes must not fill the tracked jobs.
			if (job && !job.follow) {
				writes.untrackJob(probe.jobKey);
			}
		}
	};

	const run = async () => {
		if (!seeded) {
			await seed();
		}

		collect();
		const state = store.getState();
		// Fed by an agent: the agent probes (one poller, one prober); its probes reach this store as events.
		// Nothing before the account's list came in (an agent may yet be found to feed this process).
		const listed = state.endpoints.updatedAt !== undefined || state.connection.graphql.lastSuccessAt !== undefined;
		if (state.via === 'agent' || !send || !listed) {
			return;
		}

		const at = now();
		const endpoints = state.endpoints.order.map(id => ({id, name: state.endpoints.byId[id]?.record.name}));
		for (const [index, rule] of rules.entries()) {
			for (const endpointId of probeTargets(rule, endpoints)) {
				const pair = `${index}\n${endpointId}`;
				const due = (dueAt.get(pair) ?? Number.NEGATIVE_INFINITY) <= at;
				if (due && !inFlight.has(pair) && !sending.has(pair)) {
					sending.set(pair, sendOne(pair, rule, endpointId, send));
				}
			}
		}
	};

	// Awake at least every second (a probe's end, an endpoint that appeared), sooner when one is due.
	const loop = createLoop(run, () => Math.max(0, Math.min(tickMs, ...[...dueAt.values()].map(due => due - now()))));
	return {
		...loop,
		async settle() {
			await Promise.allSettled(sending.values());
		},
	};
}
