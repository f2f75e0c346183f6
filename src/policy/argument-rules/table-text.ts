// Argument rules: see table.ts.
import type { ProgramRule } from './rule-format.js';

export const TEXT_RULES: readonly (readonly [string, ProgramRule])[] = [];
