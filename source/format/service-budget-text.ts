import {formatCount} from './numbers.js';
import {sanitizeLine} from './sanitize.js';

/** A window of the service's: what is left of it for every tool on the key, of what it allows. */
type WindowLeft = {readonly name: string; readonly remaining: number; readonly limit: number};

/** What the header shows of a budget planned inside the service's windows (the store's budget state has this shape). */
export type ServiceBudgetView = {
	readonly key: string;
	readonly windows?: readonly WindowLeft[];
	readonly slowed?: {readonly reason: 'rate-limited' | 'spent' | 'others' | 'unreadable'; readonly window?: string};
};

const shortNames: Readonly<Record<string, string>> = {minute: 'min', hour: 'h', day: 'd'};

const count = (value: number) => formatCount(value).replace('.0k', 'k');

/** `41/60 min`: what is left of a window for every tool on the key, of what it allows. */
const windowText = ({name, remaining, limit}: WindowLeft) => `${count(remaining)}/${count(limit)} ${shortNames[name] ?? sanitizeLine(name).slice(0, 6)}`;

/** Why podtop sends slower than its share allows, in a few words. */
function slowedText(slowed: NonNullable<ServiceBudgetView['slowed']>): string {
	const window = slowed.window === undefined ? '' : ` ${shortNames[slowed.window] ?? sanitizeLine(slowed.window).slice(0, 6)}`;
	switch (slowed.reason) {
		case 'rate-limited': {
			return `429, waiting${window ? ` for${window}` : ''}`;
		}

		case 'spent': {
			return `slowed: share of${window} used`;
		}

		case 'others': {
			return `slowed: others on the key${window ? ` spend${window}` : ''}`;
		}

		default: {
			return 'slowed: rate headers unreadable';
		}
	}
}

/**
The management API's budget as the header shows it: the service's windows, what is left of each
for every tool on the key (the minute's and the hour's always, another when under a quarter is left),
and why podtop is slowed when it is: `v2 41/60 min · 2.8k/3k h`, `v2 3/60 min · 2.8k/3k h slowed: others on the key spend min`.
*/
export function serviceBudgetText(budget: ServiceBudgetView, dot: string): string {
	const shown = (budget.windows ?? []).filter((window, index) => index < 2 || window.remaining < window.limit / 4);
	const windows = shown.length > 0 ? shown.map(window => windowText(window)).join(` ${dot} `) : '–';
	return `${budget.key} ${windows}${budget.slowed ? ` ${slowedText(budget.slowed)}` : ''}`;
}
