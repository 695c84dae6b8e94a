import {describe, expect, test} from 'vitest';
import {parseAlertRules} from '../../source/config/alert-rules.js';
import {holdingNow} from '../../source/store/alert-conditions.js';
import {createPodtopStore} from '../../source/store/create-store.js';

const {rules} = parseAlertRules(['[[rule]]', 'kind = "balance"', '', '[[rule]]', 'kind = "spend-limit"', 'near = 50'].join('\n'), 'alerts.toml');
const [balanceRule, limitRule] = rules;

function stateWith(balance: Parameters<ReturnType<typeof createPodtopStore>['writes']['setBalance']>[0] | undefined) {
	const {store, writes} = createPodtopStore({mode: 'live', apiHost: 'api.runpod.ai', keyFingerprint: '••••1a2b'});
	if (balance !== undefined) {
		writes.setBalance(balance);
	}

	return store.getState();
}

describe('balance and spend-limit alerts', () => {
	test('a balance lasting under 24 h at the current spend fires, saying what happens at $0; a day or more does not', () => {
		expect(balanceRule).toEqual({name: 'balance', kind: 'balance', underMs: 86_400_000});
		const [holding] = holdingNow(balanceRule!, stateWith({balance: 50, spendPerHour: 2.5}), Date.now());
		expect(holding).toEqual({
			subject: 'account',
			subjectName: 'balance',
			message: '$50.00 lasts 20h 0m at $2.50/h (under 1d): at $0 the service stops every running pod',
		});
		expect(holdingNow(balanceRule!, stateWith({balance: 60, spendPerHour: 2.5}), Date.now())).toEqual([]);
		expect(holdingNow(balanceRule!, stateWith({balance: 5, spendPerHour: 0}), Date.now())).toEqual([]);
	});

	test('nothing fires on a balance not published or not read yet (never taken as $0)', () => {
		for (const rule of rules) {
			expect(holdingNow(rule, stateWith('not-published'), Date.now())).toEqual([]);
			expect(holdingNow(rule, stateWith(undefined), Date.now())).toEqual([]);
		}
	});

	test('spend per hour near the limit fires', () => {
		expect(limitRule).toMatchObject({kind: 'spend-limit', nearPercent: 50, limit: 80});
		expect(holdingNow(limitRule!, stateWith({balance: 1000, spendPerHour: 39}), Date.now())).toEqual([]);
		expect(holdingNow(limitRule!, stateWith({balance: 1000, spendPerHour: 44}), Date.now())).toEqual([
			{subject: 'account', subjectName: 'spend limit', message: 'spending $44.00/h, 55 % of the $80.00/h limit'},
		]);
	});
});
