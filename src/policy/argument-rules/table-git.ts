// The git rule (issue 10 item 1): a few global options, then one of the listed
// subcommands, each with its own closed option list (table-git-read.ts,
// table-git-write.ts). The named check git-effects.ts runs for every one of them:
// it finds the repository and checks what the subcommand reads and writes.
// -C DIR moves every check (the repository found, its config, pathspecs, files) to DIR (value-kinds.ts moveWorkingDirectory).
// Never listed: -c, --git-dir, --work-tree, --exec-path, --config-env, --namespace, --help; aliases are unknown subcommands.
import { GIT_NO_REPOSITORY } from './git-effects.js';
import type { ProgramRule } from './rule-format.js';
import { GIT_READ_SUBCOMMANDS } from './table-git-read.js';
import { GIT_WRITE_SUBCOMMANDS } from './table-git-write.js';

const VERSION: ProgramRule = { why: 'it only prints the version', options: [], positionals: {}, marks: [GIT_NO_REPOSITORY] };

const GIT: ProgramRule = {
  why: 'git can run programs through its options (-c, --exec-path, --ext-diff), config and transports, and rewrites files the scopes may not cover',
  options: [
    { short: 'C', value: 'working-directory' },
    { long: 'no-pager' },
    { short: 'P' },
    { long: 'no-optional-locks' },
    { long: 'literal-pathspecs' },
    { long: 'no-replace-objects' },
    { long: 'version' },
  ],
  positionals: {},
  // On the top rule, so no subcommand can skip it: a subcommand that declares no effect is denied there.
  check: 'git-effects',
  subcommands: { '': VERSION, version: VERSION, ...GIT_READ_SUBCOMMANDS, ...GIT_WRITE_SUBCOMMANDS },
};

export const GIT_RULES: readonly (readonly [string, ProgramRule])[] = [['git', GIT]];
