// Argument rules for file readers and writers (coreutils and friends): their
// paths obey the same scopes as the file tools, and links cannot widen them.
import type { OptionRule, ProgramRule } from './rule-format.js';
import { FOLLOWS_LINKS } from './value-kinds.js';

const HELP: readonly OptionRule[] = [{ long: 'help' }, { long: 'version' }];

export const FILE_RULES: readonly (readonly [string, ProgramRule])[] = [
  [
    'cat',
    {
      why: 'its file arguments must be inside the read scopes',
      options: [...HELP, { short: 'A', long: 'show-all' }, { short: 'b', long: 'number-nonblank' }, { short: 'e' }, { short: 'E', long: 'show-ends' }, { short: 'n', long: 'number' }, { short: 's', long: 'squeeze-blank' }, { short: 't' }, { short: 'T', long: 'show-tabs' }, { short: 'u' }, { short: 'v', long: 'show-nonprinting' }],
      positionals: { rest: 'read' },
    },
  ],
  [
    'cp',
    {
      why: 'it reads its sources and writes its last argument; links it makes or follows cannot reach outside the scopes',
      options: [
        ...HELP,
        { short: 'a', long: 'archive' },
        { short: 'f', long: 'force' },
        { short: 'i', long: 'interactive' },
        { short: 'n', long: 'no-clobber' },
        { short: 'p' },
        { short: 'P', long: 'no-dereference' },
        { short: 'r', long: 'recursive' },
        { short: 'R' },
        { short: 'u', long: 'update' },
        { short: 'v', long: 'verbose' },
        { short: 'L', long: 'dereference', sets: FOLLOWS_LINKS },
        { short: 'H' }, // follows only the links named on the command line, which the path decision resolves anyway
        { short: 'l', long: 'link', sets: 'hard-link' },
        { short: 's', long: 'symbolic-link', sets: 'symbolic-link' },
        { short: 'T', long: 'no-target-directory' },
      ],
      positionals: { rest: 'read', last: 'write', min: 2 },
      flagPositionals: [
        ['symbolic-link', { rest: 'symlink-target', last: 'write', min: 2 }],
        ['hard-link', { rest: 'hardlink-source', last: 'write', min: 2 }],
      ],
    },
  ],
  [
    'ln',
    {
      why: 'a link is a second name for a file: a hard link needs its source inside the write scopes, a symbolic link a target inside the scopes',
      options: [...HELP, { short: 'f', long: 'force' }, { short: 'n', long: 'no-dereference' }, { short: 'v', long: 'verbose' }, { short: 'T', long: 'no-target-directory' }, { short: 's', long: 'symbolic', sets: 'symbolic-link' }],
      positionals: { rest: 'hardlink-source', last: 'write', lastImpliedFromSingle: true, min: 1 },
      flagPositionals: [['symbolic-link', { rest: 'symlink-target', last: 'write', lastImpliedFromSingle: true, min: 1 }]],
    },
  ],
];
