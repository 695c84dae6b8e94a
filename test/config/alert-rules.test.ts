import {readFileSync} from 'node:fs';
import {describe, expect, test} from 'vitest';
import {AlertRulesError, parseAlertRules, parseDuration} from '../../source/config/alert-rules.js';

const readmeExample = (() => {
	const readme = readFileSync(new URL('../../readme.md', import.meta.url), 'utf8');
	return /### Alerts[\s\S]*?```toml\n([\s\S]*?)```/.exec(readme)![1]!;
})();

const readmeProbes = (() => {
	const readme = readFileSync(new URL('../../readme.md', import.meta.url), 'utf8');
	return /#### Probes[\s\S]*?```toml\n([\s\S]*?)```/.exec(readme)![1]!;
})();

const problem = (text: string) => {
	try {
		parseAlertRules(text, 'alerts.toml');
	} catch (error) {
		expect(error).toBeInstanceOf(AlertRulesError);
		return (error as Error).message;
	}

	throw new Error('no problem found');
};

describe('alert rules (TOML)', () => {
	test("the readme's example reads as eleven rules and a webhook", () => {
		const {rules, webhook} = parseAlertRules(readmeExample, 'alerts.toml');
		expect(webhook).toEqual({url: 'https://hooks.slack.com/services/T000/B000/XXXX', retries: 5});
		expect(rules).toEqual([
			{name: 'queue backing up', kind: 'queue', endpoint: 'llama-*', over: 50, forMs: 120_000},
			{name: 'jobs failing', kind: 'failure-rate', endpoint: '*', overPercent: 5, windowMs: 600_000},
			{name: 'workers', kind: 'workers', endpoint: '*'},
			{name: 'crash-loop', kind: 'crash-loop', endpoint: '*'},
			{name: 'stuck queue', kind: 'stuck-queue', endpoint: '*', forMs: 300_000},
			{name: 'H100 running out', kind: 'gpu-stock', gpu: '*H100*', at: 'Low'},
			{name: 'paying for nothing', kind: 'idle-pod', pod: '*', underPercent: 5, forMs: 1_800_000, costingOver: 0.5},
			{name: 'spend', kind: 'spend', over: 40},
			{name: 'balance running out', kind: 'balance', underMs: 86_400_000},
			{name: 'near the spend limit', kind: 'spend-limit', nearPercent: 90, limit: 80},
			{name: 'over budget', kind: 'budget', monthly: 500},
		]);
	});

	test('durations: 90s, 2m, 1h30m, or seconds as a number', () => {
		expect(parseDuration('90s')).toBe(90_000);
		expect(parseDuration('2m')).toBe(120_000);
		expect(parseDuration('1h30m')).toBe(5_400_000);
		expect(parseDuration(45)).toBe(45_000);
		expect(parseDuration('soon')).toBeUndefined();
		expect(parseDuration('-1s')).toBeUndefined();
	});

	test('a file that does not parse says the line and column', () => {
		expect(problem('[[rule]]\nkind = "queue"\nover = = 5\n')).toMatch(/^alerts\.toml does not parse at line 3, column \d+: /);
	});

	test("each mistake is named at its rule's line, with what to write instead", () => {
		expect(problem('[[rule]]\nkind = "queue"\nover = 5\n\n[[rule]]\nkind = "queues"\n')).toBe(
			'alerts.toml line 5 (rule 2): kind must be one of queue, failure-rate, workers, crash-loop, stuck-queue, gpu-stock, idle-pod, spend, balance, spend-limit, budget, latency, not "queues"',
		);
		expect(problem('[[rule]]\nkind = "queue"\nover = 5\nfor = "soon"\n')).toBe('alerts.toml line 1 (rule 1): for must be a duration like "90s", "5m" or "1h"');
		expect(problem('[[rule]]\nkind = "queue"\n')).toBe('alerts.toml line 1 (rule 1): over must be a number ≥ 0 (it is required for this kind)');
		expect(problem('[[rule]]\nkind = "spend"\nover = 5\nwindow = "5m"\n')).toBe(
			'alerts.toml line 1 (rule 1): a spend rule has no key "window"; its keys are kind, name, over',
		);
		expect(problem('[[rule]]\nkind = "failure-rate"\nover = 150\n')).toContain('over is a percentage (0 to 100)');
		expect(problem('[[rule]]\nkind = "gpu-stock"\nat = "Medium"\n')).toContain('at must be "Low" (Low or gone) or "None" (gone)');
		expect(problem('[webhook]\nurl = "ftp://example.com"\n')).toContain('[webhook]: url must be an http(s) URL');
		expect(problem('[rule]\nkind = "spend"\n')).toContain('rules are [[rule]] tables (with two brackets)');
		expect(problem('[rules]\n')).toBe('alerts.toml: unknown table or key "rules"; the file has [[rule]] and [[probe]] tables and an optional [webhook]');
	});

	test('[[probe]] tables: endpoint, every, input (a table), timeout; off unless written', () => {
		const {rules, probes} = parseAlertRules(
			[
				'[[probe]]',
				'endpoint = "llama-*"',
				'every = "5m"',
				'input = {prompt = "ping", max_tokens = 1}',
				'',
				'[[probe]]',
				'name = "smoke"',
				'endpoint = "smoke-test-echo"',
				'every = "2s"',
				'timeout = "30s"',
				'input = {delay_ms = 10}',
				'',
				'[[rule]]',
				'name = "slow llama"',
				'kind = "latency"',
				'endpoint = "llama-*"',
				'over = "30s"',
				'for = "15m"',
			].join('\n'),
			'alerts.toml',
		);
		expect(probes).toEqual([
			{name: 'probe llama-*', endpoint: 'llama-*', everyMs: 300_000, timeoutMs: 600_000, input: {prompt: 'ping', max_tokens: 1}},
			{name: 'smoke', endpoint: 'smoke-test-echo', everyMs: 2000, timeoutMs: 30_000, input: {delay_ms: 10}},
		]);
		expect(rules).toEqual([
			{name: 'slow llama', kind: 'latency', endpoint: 'llama-*', percentile: 95, measure: 'total', overMs: 30_000, windowMs: 900_000, forMs: 900_000},
		]);
		expect(parseAlertRules('[[rule]]\nkind = "spend"\nover = 1\n', 'alerts.toml').probes).toBeUndefined();
	});

	test("the readme's probe example reads as one probe and one latency rule", () => {
		expect(parseAlertRules(readmeProbes, 'alerts.toml')).toEqual({
			webhook: undefined,
			probes: [{name: 'probe llama-*', endpoint: 'llama-*', everyMs: 300_000, timeoutMs: 600_000, input: {prompt: 'ping', max_tokens: 1}}],
			rules: [{name: 'llama slow', kind: 'latency', endpoint: 'llama-*', percentile: 95, measure: 'total', overMs: 30_000, windowMs: 900_000, forMs: 900_000}],
		});
	});

	test('a latency rule takes a percentile, a measure and a window', () => {
		const {rules} = parseAlertRules('[[rule]]\nkind = "latency"\nover = "2s"\npercentile = 99\nmeasure = "delay"\nwindow = "1h"\n', 'alerts.toml');
		expect(rules).toEqual([{name: 'latency', kind: 'latency', endpoint: '*', percentile: 99, measure: 'delay', overMs: 2000, windowMs: 3_600_000, forMs: 0}]);
	});

	test("each probe or latency mistake is named at its table's line, with what to write instead", () => {
		const probe = (lines: string) => problem(`[[rule]]\nkind = "spend"\nover = 1\n\n[[probe]]\n${lines}\n`);
		expect(probe('every = "5m"\ninput = {}')).toBe(
			'alerts.toml line 5 (probe 1): endpoint is required: an id or a name (with * as a wildcard), like endpoint = "llama-*"',
		);
		expect(probe('endpoint = "x"\nevery = "500ms"\ninput = {}')).toBe('alerts.toml line 5 (probe 1): every must be a duration of 1s or more, like "5m"');
		expect(probe('endpoint = "x"\nevery = "0s"\ninput = {}')).toBe('alerts.toml line 5 (probe 1): every must be a duration of 1s or more, like "5m"');
		expect(probe('endpoint = "x"\ninput = "ping"')).toBe(
			'alerts.toml line 5 (probe 1): input is required: the job\'s input as a table, like input = {prompt = "ping", max_tokens = 1}',
		);
		expect(probe('endpoint = "x"\ninput = {}\nover = 5')).toBe(
			'alerts.toml line 5 (probe 1): a probe has no key "over"; its keys are name, endpoint, every, input, timeout',
		);
		expect(problem('[probe]\nendpoint = "x"\n')).toContain('probes are [[probe]] tables (with two brackets)');
		expect(problem('[[rule]]\nkind = "latency"\n')).toBe(
			'alerts.toml line 1 (rule 1): over must be a duration like "30s" (the time the percentile must pass); it is required for this kind',
		);
		expect(problem('[[rule]]\nkind = "latency"\nover = "30s"\nmeasure = "queue"\n')).toContain(
			'measure must be "delay" (in the queue), "execution" (running) or "total" (both)',
		);
		expect(problem('[[rule]]\nkind = "latency"\nover = "30s"\npercentile = 0\n')).toContain('percentile must be over 0 and at most 100');
		expect(problem('[[probe]]\nendpoint = "x"\ninput = {a = = 1}\n')).toMatch(/^alerts\.toml does not parse at line 3, column \d+: /);
	});

	test('an empty file is no rules, no webhook', () => {
		expect(parseAlertRules('', 'alerts.toml')).toEqual({rules: [], webhook: undefined});
	});
});
