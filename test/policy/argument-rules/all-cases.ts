// Every hand-written argument-rule case, for the tests that need them all.
import { FILE_CASES } from './files-cases.js';
import type { GateCase } from './gate-cases.js';
import { ARCHIVE_CASES, TEXT_CASES } from './text-cases.js';

export const ALL_CASES: readonly GateCase[] = [...FILE_CASES, ...TEXT_CASES, ...ARCHIVE_CASES];
