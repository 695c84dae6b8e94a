import {describe, expect, test} from 'vitest';
import {kindFields} from '../../source/history/fields.js';
import {metricTerms, readMetrics} from '../../source/history/prometheus-metrics.js';
import {
	accountResolution,
	accountStepQuery,
	fitStep,
	kindMetrics,
	oneOf,
	promString,
	rawQuery,
	resolveMatchers,
	stateQuery,
	stepQuery,
	stepWindow,
} from '../../source/history/prometheus-queries.js';
import {createMetrics} from '../../source/serve/metrics.js';
import {createPodtopStore} from '../../source/store/create-store.js';

describe('PromQL building', () => {
	test('names go in as literals: quotes, backslashes and regex characters escaped, so a name matches only itself', () => {
		expect(promString('say "hi" \\o/\nnext')).toBe(String.raw`"say \"hi\" \\o/\nnext"`);
		expect(oneOf(['llama.cpp (8b)', 'a|b', 'plain'])).toBe(String.raw`llama\.cpp \(8b\)|a\|b|plain`);
		expect(resolveMatchers('endpoint', ['my "ep".*'])).toEqual([
			String.raw`podtop_endpoint_jobs_in_queue{endpoint_id=~"my \"ep\"\\.\\*"}`,
			String.raw`podtop_endpoint_jobs_in_queue{endpoint=~"my \"ep\"\\.\\*"}`,
		]);
	});

	test('raw samples: one range selector over every metric of the kind, for the ids asked', () => {
		expect(rawQuery('pod', ['p1', 'p2'], 3_600_000)).toBe(`{__name__=~"${kindMetrics('pod').join('|')}",pod_id=~"p1|p2"}[3600000ms]`);
		expect(kindMetrics('pod')).toContain('podtop_pod_info');
		expect(kindMetrics('gpu')).toContain('podtop_gpu_stock');
	});

	test('a step: min, mean, max and last of each metric over the step, the scrapes it holds and the state at its end, in one query', () => {
		const query = stepQuery('pod', ['p1'], 300_000);
		const parts = query.split(' or ');
		expect(parts).toHaveLength(metricTerms.pod.length * 4 + 2);
		for (const {metric} of metricTerms.pod) {
			for (const [summary, over] of [
				['min', 'min_over_time'],
				['mean', 'avg_over_time'],
				['max', 'max_over_time'],
				['last', 'last_over_time'],
			]) {
				expect(parts).toContain(`label_replace(${over}(${metric}{pod_id=~"p1"}[300000ms]), "podtop_term", "${summary}:${metric}", "", "")`);
			}
		}

		expect(parts).toContain('label_replace(count_over_time(podtop_pod_info{pod_id=~"p1"}[300000ms]), "podtop_term", "count:podtop_pod_info", "", "")');
		// The state: the series as it stands at the step's end (a status changed mid-step has ended, stale).
		expect(parts).toContain('label_replace(podtop_pod_info{pod_id=~"p1"}, "podtop_term", "state:podtop_pod_info", "", "")');
		expect(stepQuery('endpoint', ['e'], 60_000)).not.toContain('state:');
	});

	test("the account's step: subqueries at about 20 evaluations a step, never finer than 15 s; alerts are not exported", () => {
		expect(accountResolution(60_000)).toBe(15_000);
		expect(accountResolution(3_600_000)).toBe(180_000);
		const query = accountStepQuery(3_600_000, 180_000);
		expect(query).toContain(
			'min_over_time((sum(max by (pod_id) (podtop_pod_cost_dollars_per_hour) and on (pod_id) podtop_pod_info{status="RUNNING"}) or 0 * max(podtop_source_stale))[3600000ms:180000ms])',
		);
		expect(query).toContain(
			'label_replace(last_over_time((count(max by (pod_id) (podtop_pod_info)) or 0 * max(podtop_source_stale))[3600000ms:180000ms]), "podtop_term", "last:2", "", "")',
		);
		expect(query).toContain('"last:3"');
		expect(query).not.toContain('"last:4"');
		expect(query).toContain('label_replace(max(count_over_time(podtop_source_stale[3600000ms])), "podtop_term", "count:account", "", "")');
	});

	test('a moment: the series as they stood, and the endpoint counters 4 min before (with when each was sampled)', () => {
		const query = stateQuery();
		expect(query).toContain('label_replace(timestamp(podtop_endpoint_jobs_in_queue), "podtop_term", "at", "", "")');
		expect(query).toContain('label_replace(timestamp(podtop_endpoint_jobs_in_queue offset 240000ms), "podtop_term", "before_at", "", "")');
		expect(query).toMatch(/label_replace\({__name__=~"[^"]*podtop_endpoint_jobs_completed_total[^"]*"} offset 240000ms, "podtop_term", "before", "", ""\)/);
		expect(query).toContain('podtop_pod_uptime_seconds');
	});

	test('steps close buckets aligned to the epoch; a range too long for its step gets a wider one, in whole minutes', () => {
		expect(stepWindow(90_000, 250_000, 60_000)).toEqual({start: 120_000, end: 300_000});
		expect(fitStep(0, 86_400_000, 60_000)).toBe(60_000);
		// 30 days at a minute would be 43,200 points: 5 minutes keeps them under 10,000.
		expect(fitStep(0, 30 * 86_400_000, 60_000)).toBe(300_000);
	});
});

describe('the metrics read are the ones podtop export serves', () => {
	test('every metric the reader asks for is in the exporter, and every field of every kind but the alert count has one', async () => {
		const {store} = createPodtopStore({mode: 'live', apiHost: 'x', keyFingerprint: '••••1234'});
		const metrics = createMetrics(store);
		const exported = new Set([...(await metrics.registry.metrics()).matchAll(/^# TYPE (\S+)/gm)].map(match => match[1]));
		metrics.close();
		for (const metric of readMetrics) {
			expect(exported, metric).toContain(metric);
		}

		// Each fixed field is where some series of some metric goes.
		const labelsToTry: Array<Record<string, string>> = [
			{},
			...['running', 'idle', 'initializing', 'ready', 'throttled', 'unhealthy'].map(state => ({state})),
			...['secure', 'community'].flatMap(cloud => ['on_demand', 'spot'].map(kind => ({cloud, kind}))),
			...['one_week', 'one_month', 'three_months', 'six_months'].map(term => ({term})),
			{gpu_index: '0'},
		];
		for (const kind of ['endpoint', 'pod', 'gpu'] as const) {
			const covered = new Set(metricTerms[kind].flatMap(term => labelsToTry.map(labels => term.position(labels))));
			for (const [index, field] of kindFields[kind].entries()) {
				expect(covered.has(index), `${kind}.${field}`).toBe(true);
			}
		}
	});
});
