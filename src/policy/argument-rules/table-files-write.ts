// Argument rules for programs that create, change or remove the files they
// name (tee, touch, mkdir, rm, chmod, mv...): every such operand is a write
// path (so .git and the state directory are refused), and files they only
// consult (touch -r, chmod --reference) are read paths.
import { BACKUP_CONTROL, BACKUP_SUFFIX, DATE_TEXT, HELP, MODE_OPERAND, MODE_VALUE } from './file-rule-kinds.js';
import type { ProgramRule } from './rule-format.js';
import { WRITES_CONTENTS_ONLY } from './argument-effects.js';

const REFERENCE_MODE = 'reference-mode';

const CHMOD: ProgramRule = {
  marks: [WRITES_CONTENTS_ONLY],
  why: 'the files it changes must be inside the write scopes; MODE must not start with "-" (it would read as an option: write a-w, not -w); -L and -H (following links inside trees) are not allowed',
  options: [
    ...HELP,
    { short: 'c', long: 'changes' },
    { short: 'f', long: 'silent' },
    { long: 'quiet' },
    { short: 'v', long: 'verbose' },
    { long: 'preserve-root' },
    { long: 'reference', value: 'read', sets: REFERENCE_MODE },
    // Recursing, chmod passes over the links it meets (it follows only those named on the command line, which are decided resolved).
    { short: 'R', long: 'recursive' },
  ],
  positionals: { leading: [MODE_OPERAND], rest: 'write' },
  flagPositionals: [[REFERENCE_MODE, { rest: 'write' }]],
};

const MV: ProgramRule = {
  why: 'it changes both the files it moves and where they go, so every path must be inside the write scopes',
  options: [
    ...HELP,
    { long: 'backup', optionalValue: BACKUP_CONTROL },
    { short: 'b' },
    { short: 'f', long: 'force' },
    { short: 'i', long: 'interactive' },
    { short: 'n', long: 'no-clobber' },
    { long: 'strip-trailing-slashes' },
    { short: 'S', long: 'suffix', value: BACKUP_SUFFIX },
    { short: 't', long: 'target-directory', value: 'write' },
    { short: 'T', long: 'no-target-directory' },
    { short: 'u', long: 'update' },
    { short: 'v', long: 'verbose' },
  ],
  positionals: { rest: 'write' },
};

export const WRITER_RULES: readonly (readonly [string, ProgramRule])[] = [
  [
    'tee',
    {
      marks: [WRITES_CONTENTS_ONLY],
      why: 'the files it writes must be inside the write scopes',
      options: [
        ...HELP,
        { short: 'a', long: 'append' },
        { short: 'i', long: 'ignore-interrupts' },
        { short: 'p' },
        { long: 'output-error', optionalValue: { choices: ['warn', 'warn-nopipe', 'exit', 'exit-nopipe'] } },
      ],
      positionals: { rest: 'write' },
    },
  ],
  [
    'touch',
    {
      marks: [WRITES_CONTENTS_ONLY],
      why: 'the files it creates or stamps must be inside the write scopes, and a reference file (-r) inside the read scopes',
      options: [
        ...HELP,
        { short: 'a' },
        { short: 'c', long: 'no-create' },
        { short: 'd', long: 'date', value: DATE_TEXT },
        { short: 'f' },
        { short: 'h', long: 'no-dereference' },
        { short: 'm' },
        { short: 'r', long: 'reference', value: 'read' },
        { short: 't', value: { matches: /^(?:[0-9]{2}){4,6}(?:\.[0-9]{2})?$/, describe: 'a stamp [[CC]YY]MMDDhhmm[.ss]' } },
        { long: 'time', value: { choices: ['access', 'atime', 'use', 'modify', 'mtime'] } },
      ],
      positionals: { rest: 'write' },
    },
  ],
  [
    'mkdir',
    {
      why: 'the directories it creates must be inside the write scopes; SELinux contexts (-Z, --context) are not allowed',
      options: [...HELP, { short: 'm', long: 'mode', value: MODE_VALUE }, { short: 'p', long: 'parents' }, { short: 'v', long: 'verbose' }],
      positionals: { rest: 'write' },
    },
  ],
  [
    'rm',
    {
      why: 'what it removes must be inside the write scopes; --no-preserve-root is not allowed',
      options: [
        ...HELP,
        { short: 'f', long: 'force' },
        { short: 'i' },
        { short: 'I' },
        { long: 'interactive', optionalValue: { choices: ['never', 'once', 'always'] } },
        { long: 'one-file-system' },
        { long: 'preserve-root', optionalValue: { choices: ['all'] } },
        { short: 'r', long: 'recursive' },
        { short: 'R' },
        { short: 'd', long: 'dir' },
        { short: 'v', long: 'verbose' },
      ],
      positionals: { rest: 'write' },
    },
  ],
  [
    'rmdir',
    {
      why: 'the directories it removes must be inside the write scopes; -p is not allowed (it removes parents the rule does not name)',
      options: [...HELP, { long: 'ignore-fail-on-non-empty' }, { short: 'v', long: 'verbose' }],
      positionals: { rest: 'write' },
    },
  ],
  [
    'truncate',
    {
      marks: [WRITES_CONTENTS_ONLY],
      why: 'the files it resizes must be inside the write scopes, and a reference file (-r) inside the read scopes',
      options: [
        ...HELP,
        { short: 'c', long: 'no-create' },
        { short: 'o', long: 'io-blocks' },
        { short: 'r', long: 'reference', value: 'read' },
        { short: 's', long: 'size', value: { matches: /^[-+<>/%]?[0-9]+(?:[KMGTPEZY](?:iB|B)?|kB)?$/, describe: 'a size such as 0, 10K, +1M or %4K' } },
      ],
      positionals: { rest: 'write' },
    },
  ],
  ['chmod', CHMOD],
  ['mv', MV],
];
