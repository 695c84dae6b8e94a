/** A balance read as the store holds it (see model/balance.ts). */
type Read = {readonly balance: number; readonly spendPerHour: number} | 'not-published' | undefined;

/** How long a balance lasts at a spend per hour: `3d 14h`, `5h 20m`, `12m`; `–` when nothing is spent. */
export function formatLasting(balance: number, spendPerHour: number, compact = false): string {
	if (!(spendPerHour > 0)) {
		return '–';
	}

	const minutes = Math.max(0, Math.floor((balance / spendPerHour) * 60));
	const [days, hours, rest] = [Math.floor(minutes / 1440), Math.floor((minutes % 1440) / 60), minutes % 60];
	const parts = days > 0 ? [`${days}d`, `${hours}h`] : hours > 0 ? [`${hours}h`, `${rest}m`] : [`${rest}m`];
	return parts.join(compact ? '' : ' ');
}

const dollars = (value: number) => `$${value.toFixed(2)}`;

/**
The header's balance and burn, widest first, each shorter form for a narrower header:
`$212.40 · 3d 14h at $2.48/h · 3% of $80/h`, `$212.40 · 3d 14h at $2.48/h`, `$212 3d14h`. When the API no
longer publishes a balance it says so (never `$0`); before the first read, nothing.
*/
export function balanceTexts(read: Read, separator: string, limitPerHour: number): readonly string[] {
	if (read === undefined) {
		return [];
	}

	if (read === 'not-published') {
		return ['balance: not published by the API', 'balance: not published', 'bal –'];
	}

	const {balance, spendPerHour} = read;
	const burn = `${dollars(balance)} ${separator} ${formatLasting(balance, spendPerHour)} at ${dollars(spendPerHour)}/h`;
	const share = Math.round((spendPerHour / limitPerHour) * 100);
	return [`${burn} ${separator} ${share}% of $${limitPerHour}/h`, burn, `$${Math.round(balance)} ${formatLasting(balance, spendPerHour, true)}`];
}
