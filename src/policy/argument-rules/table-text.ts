// Argument rules for text and search tools (grep family, rg, sed, the awk
// family, jq, sort, xxd), with the archive tools (table-archive.ts) and find
// (find-expression.ts). Closed world: what is listed is allowed; options that
// run programs, or open files whose names the rule cannot see (sed -f, awk -f,
// sort --files0-from), are not listed.
import { ARCHIVE_RULES } from './table-archive.js';
import { FIND_RULE } from './find-expression.js';
import type { OptionRule, PositionalRule, ProgramRule, ValueKind } from './rule-format.js';
import { FOLLOWS_LINKS } from './value-kinds.js';

const PATTERNS_GIVEN = 'patterns-given'; // grep/rg -e or -f: no PATTERN positional
const RECURSIVE = 'recursive'; // grep -r: no operand means "."
const LIST_FILES = 'list-files'; // rg --files: no PATTERN positional
const SCRIPT_GIVEN = 'script-given'; // sed -e: no SCRIPT positional
const INFO = 'info'; // --help, --version: nothing else is needed

const COLOR: ValueKind = { choices: ['always', 'never', 'auto'] };
const TYPE_NAME: ValueKind = { matches: /^[A-Za-z0-9_-]+$/, describe: 'a file type name (rg --type-list lists them)' };
const ASSIGNMENT = /^[A-Za-z_][A-Za-z0-9_]*=/;
const AWK_ASSIGNMENT: ValueKind = { matches: ASSIGNMENT, describe: 'an assignment NAME=value' };

const GREP_OPTIONS: readonly OptionRule[] = [
  { long: 'help', sets: INFO },
  { short: 'V', long: 'version', sets: INFO },
  { short: 'E', long: 'extended-regexp' },
  { short: 'F', long: 'fixed-strings' },
  { short: 'G', long: 'basic-regexp' },
  { short: 'P', long: 'perl-regexp' },
  { short: 'e', long: 'regexp', value: 'pattern', sets: PATTERNS_GIVEN },
  { short: 'f', long: 'file', value: 'read', sets: PATTERNS_GIVEN },
  { short: 'i', long: 'ignore-case' },
  { short: 'w', long: 'word-regexp' },
  { short: 'x', long: 'line-regexp' },
  { short: 'z', long: 'null-data' },
  { short: 's', long: 'no-messages' },
  { short: 'v', long: 'invert-match' },
  { short: 'm', long: 'max-count', value: 'number' },
  { short: 'b', long: 'byte-offset' },
  { short: 'n', long: 'line-number' },
  { short: 'H', long: 'with-filename' },
  { short: 'h', long: 'no-filename' },
  { short: 'o', long: 'only-matching' },
  { short: 'q', long: 'quiet' },
  { long: 'silent' },
  { short: 'a', long: 'text' },
  { short: 'I' },
  { long: 'binary-files', value: { choices: ['binary', 'text', 'without-match'] } },
  // -r does not follow links inside the tree (only those named on the command line, which the path decision resolves).
  { short: 'r', long: 'recursive', sets: RECURSIVE },
  { short: 'R', long: 'dereference-recursive', sets: FOLLOWS_LINKS },
  { long: 'include', value: 'pattern' },
  { long: 'exclude', value: 'pattern' },
  { long: 'exclude-dir', value: 'pattern' },
  { long: 'exclude-from', value: 'read' },
  { short: 'l', long: 'files-with-matches' },
  { short: 'L', long: 'files-without-match' },
  { short: 'c', long: 'count' },
  { short: 'Z', long: 'null' },
  { short: 'A', long: 'after-context', value: 'number' },
  { short: 'B', long: 'before-context', value: 'number' },
  { short: 'C', long: 'context', value: 'number' },
  { long: 'color', optionalValue: COLOR },
  { long: 'colour', optionalValue: COLOR },
];

const SEARCH_IN_TREE: PositionalRule = { rest: 'read', implied: '.' };
const PATTERN_THEN_FILES: PositionalRule = { leading: ['pattern'], rest: 'read', min: 1 };
const PATTERN_THEN_TREE: PositionalRule = { ...PATTERN_THEN_FILES, implied: '.' };

const GREP: ProgramRule = {
  why: 'it reads the files it searches and its pattern files, which must be inside the read scopes; -R follows links, which cannot lead outside them',
  options: GREP_OPTIONS,
  numericOption: true,
  positionals: PATTERN_THEN_FILES,
  flagPositionals: [
    [INFO, {}],
    [[PATTERNS_GIVEN, RECURSIVE], SEARCH_IN_TREE],
    [[PATTERNS_GIVEN, FOLLOWS_LINKS], SEARCH_IN_TREE],
    [PATTERNS_GIVEN, { rest: 'read' }],
    [RECURSIVE, PATTERN_THEN_TREE],
    [FOLLOWS_LINKS, PATTERN_THEN_TREE],
  ],
};

const RG: ProgramRule = {
  why: 'it reads the trees it searches, which must be inside the read scopes; it may not run preprocessors or decompressors (--pre, -z), and -L follows links, which cannot lead outside them',
  options: [
    { short: 'h', long: 'help', sets: INFO },
    { short: 'V', long: 'version', sets: INFO },
    { short: 'e', long: 'regexp', value: 'pattern', sets: PATTERNS_GIVEN },
    { short: 'f', long: 'file', value: 'read', sets: PATTERNS_GIVEN },
    { long: 'files', sets: LIST_FILES },
    { long: 'type-list', sets: INFO },
    { short: 'i', long: 'ignore-case' },
    { short: 's', long: 'case-sensitive' },
    { short: 'S', long: 'smart-case' },
    { short: 'F', long: 'fixed-strings' },
    { short: 'w', long: 'word-regexp' },
    { short: 'x', long: 'line-regexp' },
    { short: 'v', long: 'invert-match' },
    { short: 'U', long: 'multiline' },
    { short: 'P', long: 'pcre2' },
    { short: 'c', long: 'count' },
    { long: 'count-matches' },
    { short: 'l', long: 'files-with-matches' },
    { long: 'files-without-match' },
    { short: 'n', long: 'line-number' },
    { short: 'N', long: 'no-line-number' },
    { short: 'o', long: 'only-matching' },
    { short: 'q', long: 'quiet' },
    { short: 'H', long: 'with-filename' },
    { short: 'I', long: 'no-filename' },
    { long: 'heading' },
    { long: 'no-heading' },
    { long: 'column' },
    { long: 'json' },
    { long: 'vimgrep' },
    { long: 'stats' },
    { short: 'a', long: 'text' },
    { short: '0', long: 'null' },
    { short: 'm', long: 'max-count', value: 'number' },
    { short: 'A', long: 'after-context', value: 'number' },
    { short: 'B', long: 'before-context', value: 'number' },
    { short: 'C', long: 'context', value: 'number' },
    { short: 'd', long: 'max-depth', value: 'number' },
    { short: 'M', long: 'max-columns', value: 'number' },
    { short: 'r', long: 'replace', value: 'literal' },
    { short: 'g', long: 'glob', value: 'pattern' },
    { long: 'iglob', value: 'pattern' },
    { short: 't', long: 'type', value: TYPE_NAME },
    { short: 'T', long: 'type-not', value: TYPE_NAME },
    { long: 'ignore-file', value: 'read' },
    { long: 'hidden' },
    { long: 'no-ignore' },
    { short: 'u', long: 'unrestricted' },
    { long: 'no-config' },
    { short: 'L', long: 'follow', sets: FOLLOWS_LINKS },
    { long: 'sort', value: { choices: ['path', 'modified', 'accessed', 'created', 'none'] } },
    { long: 'color', value: { choices: ['never', 'auto', 'always', 'ansi'] } },
  ],
  // rg searches "." when given no path: checked like a written one.
  positionals: PATTERN_THEN_TREE,
  flagPositionals: [
    [INFO, {}],
    [LIST_FILES, SEARCH_IN_TREE],
    [PATTERNS_GIVEN, SEARCH_IN_TREE],
  ],
};

const SED: ProgramRule = {
  why: 'its script is parsed and may not run commands or open files (no e, r, w, s///e, s///w, -f); it reads its files and never writes them (no -i: edit files with the edit tool)',
  options: [
    { long: 'help', sets: INFO },
    { long: 'version', sets: INFO },
    { short: 'n', long: 'quiet' },
    { long: 'silent' },
    { short: 'e', long: 'expression', value: 'sed-script', sets: SCRIPT_GIVEN },
    { short: 'E', long: 'regexp-extended' },
    { short: 'r' },
    { short: 's', long: 'separate' },
    { short: 'z', long: 'null-data' },
    { short: 'u', long: 'unbuffered' },
    { short: 'l', long: 'line-length', value: 'number' },
    { long: 'posix' },
    { long: 'sandbox' },
    { long: 'debug' },
  ],
  positionals: { leading: ['sed-script'], rest: 'read', min: 1 },
  flagPositionals: [
    [INFO, {}],
    [SCRIPT_GIVEN, { rest: 'read' }],
  ],
};

// awk stops at its program (POSIX getopt), and reads "NAME=value" operands as assignments, not files.
const AWK_POSITIONALS: PositionalRule = { leading: ['awk-program'], rest: { anyOf: [AWK_ASSIGNMENT, 'read'] }, min: 1 };
const AWK_WHY = 'its program is parsed and may not run commands, open files or read the environment (no system, getline, pipes, redirection, ENVIRON, -f, -W); it reads the files it is given';

const AWK: ProgramRule = {
  why: AWK_WHY,
  options: [
    { short: 'F', value: 'literal' },
    { short: 'v', value: AWK_ASSIGNMENT },
  ],
  permute: false,
  positionals: AWK_POSITIONALS,
};

const GAWK: ProgramRule = {
  why: `${AWK_WHY}; gawk's -E, -f, -i, -l, -o, -p, -d and --debug run or write files`,
  options: [
    { short: 'F', long: 'field-separator', value: 'literal' },
    { short: 'v', long: 'assign', value: AWK_ASSIGNMENT },
    { short: 'b', long: 'characters-as-bytes' },
    { short: 'c', long: 'traditional' },
    { short: 'P', long: 'posix' },
    { short: 'S', long: 'sandbox' },
    { short: 'h', long: 'help', sets: INFO },
    { short: 'V', long: 'version', sets: INFO },
  ],
  permute: false,
  positionals: AWK_POSITIONALS,
  flagPositionals: [[INFO, {}]],
};

const JQ: ProgramRule = {
  why: 'its filter is parsed and may not load modules (import, include); the files it reads, --slurpfile and --rawfile among them, must be inside the read scopes (no -f or -L)',
  options: [
    { short: 'h', long: 'help' },
    { long: 'version' },
    { short: 'r', long: 'raw-output' },
    { short: 'j', long: 'join-output' },
    { short: 'c', long: 'compact-output' },
    { short: 'n', long: 'null-input' },
    { short: 'R', long: 'raw-input' },
    { short: 's', long: 'slurp' },
    { short: 'e', long: 'exit-status' },
    { short: 'S', long: 'sort-keys' },
    { short: 'C', long: 'color-output' },
    { short: 'M', long: 'monochrome-output' },
    { short: 'a', long: 'ascii-output' },
    { long: 'tab' },
    { long: 'indent', value: 'number' },
    { long: 'seq' },
    { long: 'stream' },
    { long: 'arg', values: ['literal', 'literal'] },
    { long: 'argjson', values: ['literal', 'literal'] },
    { long: 'slurpfile', values: ['literal', 'read'] },
    { long: 'rawfile', values: ['literal', 'read'] },
  ],
  positionals: { leading: ['jq-filter'], rest: 'read' },
};

const SORT_KEY: ValueKind = {
  matches: /^[0-9]+(?:\.[0-9]+)?[bdfgiMhnRrV]*(?:,[0-9]+(?:\.[0-9]+)?[bdfgiMhnRrV]*)?$/,
  describe: 'a key definition F[.C][OPTS][,F[.C][OPTS]] (2,2n)',
};

const SORT: ProgramRule = {
  why: 'it reads its files, inside the scopes, and writes only to standard output (no -o: write files with the write tool); it may not run a compressor, write temporaries elsewhere (-T) or read file names from a file (--files0-from)',
  options: [
    { long: 'help' },
    { long: 'version' },
    { short: 'b', long: 'ignore-leading-blanks' },
    { short: 'd', long: 'dictionary-order' },
    { short: 'f', long: 'ignore-case' },
    { short: 'g', long: 'general-numeric-sort' },
    { short: 'i', long: 'ignore-nonprinting' },
    { short: 'M', long: 'month-sort' },
    { short: 'h', long: 'human-numeric-sort' },
    { short: 'n', long: 'numeric-sort' },
    { short: 'R', long: 'random-sort' },
    { short: 'r', long: 'reverse' },
    { short: 'V', long: 'version-sort' },
    { long: 'sort', value: { choices: ['general-numeric', 'human-numeric', 'month', 'numeric', 'random', 'version'] } },
    { short: 'c' },
    { short: 'C' },
    { long: 'check', optionalValue: { choices: ['diagnose-first', 'quiet', 'silent'] } },
    { short: 'k', long: 'key', value: SORT_KEY },
    { short: 'm', long: 'merge' },
    { short: 's', long: 'stable' },
    { short: 'S', long: 'buffer-size', value: 'size' },
    { short: 't', long: 'field-separator', value: 'literal' },
    { short: 'u', long: 'unique' },
    { short: 'z', long: 'zero-terminated' },
    { long: 'parallel', value: 'number' },
    { long: 'random-source', value: 'read' },
    { long: 'debug' },
  ],
  positionals: { rest: 'read' },
};

const XXD_OFFSET: ValueKind = { matches: /^[+-]?(?:0[xX][0-9a-fA-F]+|[0-9]+)$/, describe: 'a number, decimal or 0x hexadecimal' };

const XXD: ProgramRule = {
  why: 'it dumps one file inside the read scopes to standard output; it may not write an output file or convert back (-r)',
  options: [
    { short: 'a' },
    { short: 'b' },
    { short: 'C' },
    { short: 'c', value: 'number' },
    { short: 'd' },
    { short: 'E' },
    { short: 'e' },
    { short: 'g', value: 'number' },
    { short: 'h' },
    { short: 'i' },
    { short: 'l', value: XXD_OFFSET },
    { short: 'n', value: { matches: /^[A-Za-z_][A-Za-z0-9_]*$/, describe: 'a C identifier' } },
    { short: 'o', value: XXD_OFFSET },
    { short: 'p' },
    { word: 'ps' },
    { short: 's', value: XXD_OFFSET },
    { short: 'u' },
    { short: 'v' },
  ],
  // xxd reads its options up to the first file name; a second one is the file it writes.
  permute: false,
  positionals: { leading: ['read'] },
};

export const TEXT_RULES: readonly (readonly [string, ProgramRule])[] = [
  ['grep', GREP],
  ['egrep', GREP],
  ['fgrep', GREP],
  ['rg', RG],
  ['sed', SED],
  ['awk', AWK],
  ['mawk', AWK],
  ['nawk', AWK],
  ['gawk', GAWK],
  ['jq', JQ],
  ['sort', SORT],
  ['xxd', XXD],
  ['find', FIND_RULE],
  ...ARCHIVE_RULES,
];
