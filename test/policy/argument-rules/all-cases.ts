// Every hand-written argument-rule case, for the tests that need them all.
import type { GateCase } from './gate-cases.js';

export const ALL_CASES: readonly GateCase[] = [];
