// Argument rules for small coreutils that print text or names (echo, printf,
// date, basename, realpath...) and line filters over files (uniq, cut, tr,
// comm, paste): text is literal, files they open are read or write paths,
// and date can never set the clock.
import { DATE_TEXT, HELP } from './file-rule-kinds.js';
import type { ProgramRule } from './rule-format.js';

const PRINTS_ONLY = 'it only prints its arguments';

const DATE: ProgramRule = {
  why: 'it prints dates: -s/--set (setting the clock) and a MMDDhhmm operand (also setting it) are not allowed; a FORMAT operand starts with +; files it reads (-f, -r) must be inside the read scopes',
  options: [
    ...HELP,
    { short: 'd', long: 'date', value: DATE_TEXT },
    { long: 'debug' },
    { short: 'f', long: 'file', value: 'read' },
    { short: 'I', long: 'iso-8601', optionalValue: { choices: ['date', 'hours', 'minutes', 'seconds', 'ns'] } },
    { long: 'resolution' },
    { short: 'R', long: 'rfc-email' },
    { long: 'rfc-3339', value: { choices: ['date', 'seconds', 'ns'] } },
    { short: 'r', long: 'reference', value: 'read' },
    { short: 'u', long: 'utc' },
    { long: 'universal' },
  ],
  positionals: { leading: [{ matches: /^\+/, describe: 'a +FORMAT (an operand without + would set the clock)' }] },
};

const DURATION = { matches: /^(?:[0-9]+(?:\.[0-9]*)?|\.[0-9]+)[smhd]?$/, describe: 'a duration (5, 0.5, 10s, 2m, 1h, 1d)' } as const;

export const UTILITY_RULES: readonly (readonly [string, ProgramRule])[] = [
  ['sleep', { why: 'it only waits (the command time limit bounds it)', options: HELP, positionals: { rest: DURATION } }],
  ['yes', { why: 'it only prints its arguments, again and again (output is capped)', permute: false, options: HELP, positionals: { rest: 'literal' } }],
  // echo and printf print what follows literally, options included: only leading options are options.
  ['echo', { why: PRINTS_ONLY, permute: false, options: [...HELP, { short: 'n' }, { short: 'e' }, { short: 'E' }], positionals: { rest: 'literal' } }],
  ['printf', { why: 'it only prints its FORMAT and arguments (a FORMAT starting with - is written after --)', permute: false, options: HELP, positionals: { rest: 'literal' } }],
  ['pwd', { why: 'it only prints the working directory', options: [...HELP, { short: 'L', long: 'logical' }, { short: 'P', long: 'physical' }], positionals: {} }],
  ['true', { why: 'it does nothing', permute: false, options: HELP, positionals: { rest: 'literal' } }],
  ['false', { why: 'it does nothing', permute: false, options: HELP, positionals: { rest: 'literal' } }],
  [
    'basename',
    {
      why: 'it only edits the names it is given',
      options: [...HELP, { short: 'a', long: 'multiple' }, { short: 's', long: 'suffix', value: 'literal' }, { short: 'z', long: 'zero' }],
      positionals: { rest: 'literal' },
    },
  ],
  ['dirname', { why: 'it only edits the names it is given', options: [...HELP, { short: 'z', long: 'zero' }], positionals: { rest: 'literal' } }],
  [
    'realpath',
    {
      why: 'it resolves paths, which tells what exists there: they must be inside the read scopes',
      options: [
        ...HELP,
        { short: 'e', long: 'canonicalize-existing' },
        { short: 'm', long: 'canonicalize-missing' },
        { short: 'L', long: 'logical' },
        { short: 'P', long: 'physical' },
        { short: 'q', long: 'quiet' },
        { long: 'relative-to', value: 'read' },
        { long: 'relative-base', value: 'read' },
        { short: 's', long: 'strip' },
        { long: 'no-symlinks' },
        { short: 'z', long: 'zero' },
      ],
      positionals: { rest: 'read' },
    },
  ],
  [
    'readlink',
    {
      why: 'it reads links and resolves paths: they must be inside the read scopes',
      options: [
        ...HELP,
        { short: 'f', long: 'canonicalize' },
        { short: 'e', long: 'canonicalize-existing' },
        { short: 'm', long: 'canonicalize-missing' },
        { short: 'n', long: 'no-newline' },
        { short: 'q', long: 'quiet' },
        { short: 's', long: 'silent' },
        { short: 'v', long: 'verbose' },
        { short: 'z', long: 'zero' },
      ],
      positionals: { rest: 'read' },
    },
  ],
  ['date', DATE],
  [
    'uniq',
    {
      why: 'it reads INPUT inside the read scopes and writes OUTPUT (its second operand) inside the write scopes',
      options: [
        ...HELP,
        { short: 'c', long: 'count' },
        { short: 'd', long: 'repeated' },
        { short: 'D' },
        { long: 'all-repeated', optionalValue: { choices: ['none', 'prepend', 'separate'] } },
        { short: 'f', long: 'skip-fields', value: 'number' },
        { long: 'group', optionalValue: { choices: ['separate', 'prepend', 'append', 'both'] } },
        { short: 'i', long: 'ignore-case' },
        { short: 's', long: 'skip-chars', value: 'number' },
        { short: 'u', long: 'unique' },
        { short: 'z', long: 'zero-terminated' },
        { short: 'w', long: 'check-chars', value: 'number' },
      ],
      positionals: { leading: ['read', 'write'] },
    },
  ],
  [
    'cut',
    {
      why: 'its file arguments must be inside the read scopes',
      options: [
        ...HELP,
        { short: 'b', long: 'bytes', value: 'literal' },
        { short: 'c', long: 'characters', value: 'literal' },
        { short: 'd', long: 'delimiter', value: 'literal' },
        { short: 'f', long: 'fields', value: 'literal' },
        { short: 'n' },
        { long: 'complement' },
        { short: 's', long: 'only-delimited' },
        { long: 'output-delimiter', value: 'literal' },
        { short: 'z', long: 'zero-terminated' },
      ],
      positionals: { rest: 'read' },
    },
  ],
  [
    'tr',
    {
      why: 'it only translates standard input; its operands are character sets',
      // tr stops reading options at its first set, as POSIX getopt does ("tr a -d" translates a to -d).
      permute: false,
      options: [...HELP, { short: 'c' }, { short: 'C' }, { long: 'complement' }, { short: 'd', long: 'delete' }, { short: 's', long: 'squeeze-repeats' }, { short: 't', long: 'truncate-set1' }],
      positionals: { leading: ['literal', 'literal'] },
    },
  ],
  [
    'comm',
    {
      why: 'its two file arguments must be inside the read scopes',
      options: [
        ...HELP,
        { short: '1' },
        { short: '2' },
        { short: '3' },
        { long: 'check-order' },
        { long: 'nocheck-order' },
        { long: 'output-delimiter', value: 'literal' },
        { long: 'total' },
        { short: 'z', long: 'zero-terminated' },
      ],
      positionals: { leading: ['read', 'read'] },
    },
  ],
  [
    'paste',
    {
      why: 'its file arguments must be inside the read scopes',
      options: [...HELP, { short: 'd', long: 'delimiters', value: 'literal' }, { short: 's', long: 'serial' }, { short: 'z', long: 'zero-terminated' }],
      positionals: { rest: 'read' },
    },
  ],
];
