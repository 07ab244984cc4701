/**
 * A list of names in a sentence ("USDT and USDC", "BTC, LTC, DOGE or BCH"), written from the table
 * that holds them (service/catalog.ts, record/moneyClasses.ts), so a name the table gains is in every
 * sentence that lists them: test/node/docs.test.ts fails on a string in nodes/ that lists them by hand.
 */
export function listed(names: readonly string[], conjunction: 'and' | 'or'): string {
	return names.length < 2 ? names.join('') : `${names.slice(0, -1).join(', ')} ${conjunction} ${names[names.length - 1]}`;
}
