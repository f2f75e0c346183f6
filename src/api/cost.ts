// Public API entry: how an amount of US dollars is printed, on every surface (issue 27). Re-exports only; light, with no imports below it.
export { NO_PRICE, formatCost, formatCostSum } from '../host/models/format-cost.js';
