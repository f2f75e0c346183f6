// Every hand-written argument-rule case, for the tests that need them all
// (every-entry-matters.test.ts). A family's cases join here when they are written.
import { DEV_CASES } from './dev-cases.js';
import { FILE_CASES } from './files-cases.js';
import { FIND_CASES } from './find-cases.js';
import { each, type GateCase } from './gate-cases.js';
import { GIT_CHANGELOG_CASES, GIT_DEFAULT_WRITER_CASES, GIT_DENIED_CASES, GIT_OPTION_SWEEP, GIT_PATH_CASES } from './git-cases.js';
import { INTERPRETER_CASES, SHELL_CASES } from './interpreter-cases.js';
import { NET_CASES } from './net-cases.js';
import { ARCHIVE_CASES, TEXT_CASES } from './text-cases.js';

export const ALL_CASES: readonly GateCase[] = [
  ...FILE_CASES,
  ...TEXT_CASES,
  ...ARCHIVE_CASES,
  ...FIND_CASES,
  ...DEV_CASES,
  ...INTERPRETER_CASES,
  // interpreters-table.test.ts decides these with ksh and fish allowlisted; the rules alone decide them here.
  ...each(['ksh', 'fish'], SHELL_CASES),
  ...NET_CASES,
  ...GIT_CHANGELOG_CASES,
  ...GIT_DEFAULT_WRITER_CASES,
  ...GIT_DENIED_CASES,
  ...GIT_PATH_CASES,
  ...GIT_OPTION_SWEEP,
];
