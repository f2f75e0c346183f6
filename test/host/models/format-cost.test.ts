// The one format of a cost (issue 27 §6, "cost prints one way"): under $1 four
// decimals, from $1 two, a tiny positive amount "<$0.0001", an unknown one "no price"
// (never "$0"), and a sum with unknown parts "$X + no price".
import test from 'ava';
import { formatCost, formatCostSum, NO_PRICE } from '../../../src/host/models/format-cost.js';

const pinned = test.macro({
  exec: (t, usd: number | null | undefined, text: string) => t.is(formatCost(usd), text),
  title: (_title, usd: number | null | undefined, text: string) => `formatCost(${String(usd)}) is ${text}`,
});

test(pinned, 0.012345, '$0.0123');
test(pinned, 0.5, '$0.5000');
test(pinned, 0.99994, '$0.9999');
test(pinned, 0.99996, '$1.00');
test(pinned, 1, '$1.00');
test(pinned, 12.345, '$12.35');
test(pinned, 1234.5, '$1234.50');
test(pinned, 0, '$0.0000');
test(pinned, 0.00004, '<$0.0001');
test(pinned, 0.00005, '$0.0001');
test(pinned, null, 'no price');
test(pinned, undefined, 'no price');
test(pinned, Number.NaN, 'no price');

test('a sum: the known parts, "+ no price" when some part is unknown, "no price" when none is known', (t) => {
  t.is(formatCostSum([0.25, 0.125]), '$0.3750');
  t.is(formatCostSum([0.25, null, 0.125]), '$0.3750 + no price');
  t.is(formatCostSum([null, null]), NO_PRICE);
  t.is(formatCostSum([]), '$0.0000', 'nothing ran: nothing spent');
});
