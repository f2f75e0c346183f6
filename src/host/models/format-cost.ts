// How zotbox prints an amount of US dollars, on every surface (issue 27 §6: "cost
// prints one way"): under $1, four decimals ($0.0123); from $1, two ($12.34); an
// amount above zero but under $0.0001, "<$0.0001"; an unknown cost (a model without
// prices, a replay), "no price", never "$0". Pure: no imports, so any surface can use it.

/** The text of an unknown cost. */
export const NO_PRICE = 'no price';

/**
 * One amount in USD, or null/undefined when it is unknown.
 *
 * @example formatCost(0.012345) === '$0.0123'; formatCost(12.345) === '$12.35'; formatCost(null) === 'no price'
 */
export function formatCost(usd: number | null | undefined): string {
  if (usd === null || usd === undefined || !Number.isFinite(usd) || usd < 0) return NO_PRICE;
  if (usd > 0 && usd < 0.00005) return '<$0.0001';
  const cents = usd.toFixed(4);
  // 0.99996 rounds to 1.0000: from $1, two decimals.
  return Number(cents) < 1 ? `$${cents}` : `$${usd.toFixed(2)}`;
}

/**
 * A sum of costs of which some may be unknown: the known part, then " + no price"
 * when some part had none; "no price" alone when no part had one.
 */
export function formatCostSum(costs: readonly (number | null | undefined)[]): string {
  const known = costs.filter((cost): cost is number => typeof cost === 'number');
  if (costs.length > 0 && known.length === 0) return NO_PRICE;
  const total = formatCost(known.reduce((sum, cost) => sum + cost, 0));
  return known.length < costs.length ? `${total} + ${NO_PRICE}` : total;
}
