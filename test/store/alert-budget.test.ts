import {describe, expect, test} from 'vitest';
import {AlertRulesError, parseAlertRules} from '../../source/config/alert-rules.js';
import {holdingNow} from '../../source/store/alert-conditions.js';
import {createPodtopStore} from '../../source/store/create-store.js';

const dayMs = 86_400_000;
/** 20 November 2026, 12:00 UTC: 10 days and 12 hours (252 h) to the month's end. */
const now = Date.UTC(2026, 10, 20, 12);
/** $10 a day from the 1st to the 20th (today so far included): $200 to date; and the 31st of October, not this month's. */
const november = [Date.UTC(2026, 9, 31), ...Array.from({length: 20}, (_, day) => Date.UTC(2026, 10, 1 + day))].map(from => ({
	from,
	to: from + dayMs,
	total: 10,
}));

const rule = (monthly: number) => parseAlertRules(`[[rule]]\nkind = "budget"\nmonthly = ${monthly}\n`, 'alerts.toml').rules[0]!;

function state({perHour, pods, readAt = now}: {readonly perHour?: number; readonly pods?: number; readonly readAt?: number} = {}) {
	const {store, writes} = createPodtopStore({mode: 'live', apiHost: 'api.runpod.ai', keyFingerprint: '••••1a2b'});
	writes.setMonthSpend({buckets: november, readAt});
	writes.setBalance(perHour === undefined ? 'not-published' : {balance: 1000, spendPerHour: perHour});
	if (pods !== undefined) {
		writes.setPods([{id: 'p1', name: 'trainer', desiredStatus: 'RUNNING', costPerHr: pods}], now);
	}

	return store.getState();
}

describe('the budget alert', () => {
	test('a monthly budget is a rule of its own, in dollars', () => {
		expect(rule(500)).toEqual({name: 'budget', kind: 'budget', monthly: 500});
		expect(() => parseAlertRules('[[rule]]\nkind = "budget"\n', 'alerts.toml')).toThrow(
			new AlertRulesError('alerts.toml line 1 (rule 1): monthly must be a number ≥ 0 (it is required for this kind)'),
		);
		expect(() => rule(0)).toThrow(/monthly is the month's budget in dollars, over 0/);
	});

	test('fires when month to date plus the current $/h to the month end passes the budget, with the figures', () => {
		// $200 billed + $1/h × 252 h = $452.
		expect(holdingNow(rule(450), state({perHour: 1}), now)).toEqual([
			{
				subject: 'account',
				subjectName: 'monthly budget',
				message: "forecast $452.00 this month, over the $450.00 budget: $200.00 billed so far and $1.00/h for the 10d 12h to the month's end",
			},
		]);
		expect(holdingNow(rule(452), state({perHour: 1}), now)).toEqual([]);
		// The forecast runs from the read of the bills: a look a minute later says the same until the next read.
		expect(holdingNow(rule(450), state({perHour: 1}), now + 60_000)[0]!.message).toContain('forecast $452.00');
	});

	test("without a published balance the pods' $/h carries the forecast, and says so; nothing read, nothing fires", () => {
		expect(holdingNow(rule(300), state({pods: 0.5}), now).map(holding => holding.message)).toEqual([
			"forecast $326.00 this month, over the $300.00 budget: $200.00 billed so far and $0.50/h (the pods') for the 10d 12h to the month's end",
		]);
		expect(holdingNow(rule(1), state(), now)).toEqual([]);
		const {store} = createPodtopStore({mode: 'live', apiHost: 'api.runpod.ai', keyFingerprint: '••••1a2b'});
		expect(holdingNow(rule(1), store.getState(), now)).toEqual([]);
	});

	test("a new month starts from nothing billed: last month's bills are not this month's", () => {
		const december = Date.UTC(2026, 11, 1, 0, 30);
		// 31 days less half an hour at $1/h: $743.50.
		// Bills read in November say nothing of December.
		expect(holdingNow(rule(1), state({perHour: 1}), december)).toEqual([]);
		expect(holdingNow(rule(700), state({perHour: 1, readAt: december}), december).map(holding => holding.message)).toEqual([
			"forecast $743.50 this month, over the $700.00 budget: $0.00 billed so far and $1.00/h for the 30d 23h to the month's end",
		]);
	});
});
