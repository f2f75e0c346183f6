// Argument rules for cp and ln, the programs that make links or copy through
// them (issue 10 item 4): a hard link needs its source inside the write scopes,
// a symbolic link a target inside the scopes, following links in a tree checks
// every link in it, and cp's own effects are checked by copy-effects.ts.
import { COPIES_RECURSIVELY, KEEPS_SOURCE_PARENTS, MAKES_HARD_LINKS, NO_TARGET_DIRECTORY } from './copy-effects.js';
import { BACKUP_CONTROL, BACKUP_SUFFIX, HELP } from './file-rule-kinds.js';
import type { ProgramRule } from './rule-format.js';
import { FOLLOWS_LINKS } from './value-kinds.js';

const MAKES_SYMBOLIC_LINKS = 'makes-symbolic-links';

const PRESERVED = {
  matches: /^(?:mode|ownership|timestamps|context|links|xattr|all)(?:,(?:mode|ownership|timestamps|context|links|xattr|all))*$/,
  describe: 'a list of mode, ownership, timestamps, context, links, xattr, all',
} as const;

const CP: ProgramRule = {
  why: 'it reads its sources and writes its last argument, and what is inside it; links it makes or follows cannot reach outside the scopes; -t, --copy-contents and SELinux contexts are not allowed',
  check: 'copy-effects',
  options: [
    ...HELP,
    { short: 'a', long: 'archive', sets: COPIES_RECURSIVELY },
    { long: 'attributes-only' },
    { long: 'backup', optionalValue: BACKUP_CONTROL },
    { short: 'b' },
    { short: 'd' },
    { short: 'f', long: 'force' },
    { short: 'i', long: 'interactive' },
    { short: 'H' }, // follows only the links named on the command line, which the path decision resolves anyway
    { short: 'l', long: 'link', sets: MAKES_HARD_LINKS },
    { short: 'L', long: 'dereference', sets: FOLLOWS_LINKS },
    { short: 'n', long: 'no-clobber' },
    { short: 'P', long: 'no-dereference' },
    { short: 'p' },
    { long: 'preserve', optionalValue: PRESERVED },
    { long: 'no-preserve', value: PRESERVED },
    { long: 'parents', sets: KEEPS_SOURCE_PARENTS },
    { short: 'R', sets: COPIES_RECURSIVELY },
    { short: 'r', long: 'recursive', sets: COPIES_RECURSIVELY },
    { long: 'reflink', optionalValue: { choices: ['always', 'auto', 'never'] } },
    { long: 'remove-destination' },
    { long: 'sparse', value: { choices: ['auto', 'always', 'never'] } },
    { long: 'strip-trailing-slashes' },
    { short: 's', long: 'symbolic-link', sets: MAKES_SYMBOLIC_LINKS },
    { short: 'S', long: 'suffix', value: BACKUP_SUFFIX },
    { short: 'T', long: 'no-target-directory', sets: NO_TARGET_DIRECTORY },
    { short: 'u', long: 'update' },
    { short: 'v', long: 'verbose' },
    { short: 'x', long: 'one-file-system' },
  ],
  positionals: { rest: 'read', last: 'write' },
  flagPositionals: [
    [MAKES_SYMBOLIC_LINKS, { rest: 'symlink-target', last: 'write' }],
    [MAKES_HARD_LINKS, { rest: 'hardlink-source', last: 'write' }],
  ],
};

const LN: ProgramRule = {
  why: 'a link is a second name for a file: a hard link needs its source inside the write scopes, a symbolic link a target inside the scopes; -t, -r and -d are not allowed',
  options: [
    ...HELP,
    { long: 'backup', optionalValue: BACKUP_CONTROL },
    { short: 'b' },
    { short: 'f', long: 'force' },
    { short: 'i', long: 'interactive' },
    { short: 'L', long: 'logical' },
    { short: 'n', long: 'no-dereference' },
    { short: 'P', long: 'physical' },
    { short: 's', long: 'symbolic', sets: MAKES_SYMBOLIC_LINKS },
    { short: 'S', long: 'suffix', value: BACKUP_SUFFIX },
    { short: 'T', long: 'no-target-directory' },
    { short: 'v', long: 'verbose' },
  ],
  positionals: { rest: 'hardlink-source', last: 'write', lastImpliedFromSingle: true },
  flagPositionals: [[MAKES_SYMBOLIC_LINKS, { rest: 'symlink-target', last: 'write', lastImpliedFromSingle: true }]],
};

export const LINK_RULES: readonly (readonly [string, ProgramRule])[] = [
  ['cp', CP],
  ['ln', LN],
];
