/** The account's balance and what it spends per hour now, in dollars (GraphQL's `myself`; REST v2 does not publish them). */
export type AccountBalance = {readonly balance: number; readonly spendPerHour: number};

/** What a balance read gives: the figures, or that the API no longer publishes them (GraphQL gone, or not asked). */
export type BalanceRead = AccountBalance | 'not-published';

/** The service's default spend limit across all resources, $/h. */
export const defaultSpendLimitPerHour = 80;
