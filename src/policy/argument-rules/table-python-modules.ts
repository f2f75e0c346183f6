// The modules python may run with -m (table-interpreters.ts): a closed list, each
// with its own rule for the module's arguments, read as the module's argparse
// reads them. A module is listed only when its command line carries names, files
// and options, never code: timeit and pdb -c run code given on the command line,
// cProfile, profile and trace run another module or script of their choosing,
// code reads code from standard input, venv and ensurepip install, http.server
// serves. What a listed module then imports (tests, conftest.py) is project code,
// bounded only by the sandbox (gate-rules "Honest limits").
import type { OptionRule, ProgramRule, ValueKind } from './rule-format.js';

const PIP_WHY = 'pip may list and inspect what is installed; install, download, wheel, uninstall and config (and index or path options that come with them) are denied';
const PIP_NAME: ValueKind = { matches: /^[A-Za-z0-9][A-Za-z0-9._-]*$/, describe: 'a package name' };
const PIP_COMMON: readonly OptionRule[] = [{ short: 'q', long: 'quiet' }, { short: 'v', long: 'verbose' }, { long: 'no-color' }, { long: 'disable-pip-version-check' }, { long: 'isolated' }];

function pipRule(options: readonly OptionRule[], positionals: ProgramRule['positionals'] = {}): ProgramRule {
  return { why: PIP_WHY, options: [...PIP_COMMON, ...options], positionals };
}

export const PIP: ProgramRule = {
  why: PIP_WHY,
  options: [...PIP_COMMON, { short: 'V', long: 'version' }],
  positionals: {},
  subcommands: {
    list: pipRule([
      { short: 'o', long: 'outdated' },
      { short: 'u', long: 'uptodate' },
      { short: 'e', long: 'editable' },
      { short: 'l', long: 'local' },
      { long: 'user' },
      { long: 'not-required' },
      { long: 'format', value: { choices: ['columns', 'freeze', 'json'] } },
    ]),
    show: pipRule([{ short: 'f', long: 'files' }], { rest: PIP_NAME, min: 1 }),
    freeze: pipRule([{ long: 'all' }, { short: 'l', long: 'local' }, { long: 'user' }, { long: 'exclude', value: PIP_NAME }]),
    check: pipRule([]),
    // No subcommand: pip --version (the options before a subcommand are read by the rule above).
    '': { why: PIP_WHY, options: [], positionals: {} },
  },
};

const TESTS_WHY = 'it runs the tests it finds, which are code the agent can write: only the sandbox bounds them';

/**
 * A pytest -k or -m expression: names, and/or/not and parentheses. pytest before
 * 5.4 evaluated it with Python's eval, so a call ("f(") or a dunder is denied.
 */
const PYTEST_EXPRESSION: ValueKind = {
  matches: /^(?![\s\S]*__)(?![\s\S]*[A-Za-z0-9_\]]\s*\()[A-Za-z0-9_ ()[\]./:-]*$/,
  describe: 'a keyword or marker expression of names, and, or, not and parentheses (no calls, no "__")',
};

const PYTEST: ProgramRule = {
  why: `${TESTS_WHY}; options that load plugins or other config (-p, -c, -o, --rootdir, --confcutdir) or start a debugger (--pdb, --trace) are denied`,
  options: [
    { short: 'x', long: 'exitfirst' },
    { long: 'maxfail', value: 'number' },
    { short: 'q', long: 'quiet' },
    { short: 'v', long: 'verbose' },
    { short: 's' },
    { long: 'capture', value: { choices: ['fd', 'sys', 'no', 'tee-sys'] } },
    { short: 'k', value: PYTEST_EXPRESSION },
    { short: 'm', value: PYTEST_EXPRESSION },
    { short: 'r', value: { matches: /^[fEsxXpPaAwN]+$/, describe: 'summary letters (fEsxXpPaAN)' } },
    { long: 'tb', value: { choices: ['auto', 'long', 'short', 'line', 'native', 'no'] } },
    { short: 'l', long: 'showlocals' },
    { long: 'lf' },
    { long: 'last-failed' },
    { long: 'ff' },
    { long: 'failed-first' },
    { long: 'nf' },
    { long: 'new-first' },
    { long: 'sw' },
    { long: 'stepwise' },
    { long: 'co' },
    { long: 'collect-only' },
    { long: 'durations', value: 'number' },
    { long: 'no-header' },
    { long: 'no-summary' },
    { long: 'disable-warnings' },
    { long: 'color', value: { choices: ['yes', 'no', 'auto'] } },
    { long: 'strict-markers' },
    { long: 'runxfail' },
    { long: 'doctest-modules' },
    { long: 'cache-clear' },
    { long: 'ignore', value: 'read' },
    { long: 'deselect', value: 'literal' },
    { long: 'junitxml', value: 'write' },
    { short: 'n', value: { matches: /^(?:[0-9]+|auto|logical)$/, describe: 'a number of workers, auto or logical (pytest-xdist)' } },
  ],
  // Test files, directories and node ids (tests/test_a.py::test_b[1]).
  positionals: { rest: 'literal' },
};

const UNITTEST: ProgramRule = {
  why: TESTS_WHY,
  options: [
    { short: 'v', long: 'verbose' },
    { short: 'q', long: 'quiet' },
    { long: 'locals' },
    { long: 'durations', value: 'number' },
    { short: 'f', long: 'failfast' },
    { short: 'c', long: 'catch' },
    { short: 'b', long: 'buffer' },
    { short: 'k', value: 'pattern' },
    // discover's options: the directory to start from, the file pattern, the top-level directory.
    { short: 's', long: 'start-directory', value: 'read' },
    { short: 'p', long: 'pattern', value: 'pattern' },
    { short: 't', long: 'top-level-directory', value: 'read' },
  ],
  // "discover", test modules, classes and methods, or test files.
  positionals: { rest: 'literal' },
};

/** A script file that doctest reads: its examples run, like a script. */
const DOCTEST_FILE: ValueKind = { matches: /^(?!-$)(?![A-Za-z][A-Za-z0-9+.-]*:)/, describe: 'a file whose examples run (not "-")', path: 'read' };

const DOCTEST: ProgramRule = {
  why: 'it runs the examples in the files it names, which are code in the read scopes, as a script is',
  options: [{ short: 'v' }, { short: 'f' }, { short: 'o', value: { matches: /^[A-Z_]+$/, describe: 'a doctest option flag (ELLIPSIS, NORMALIZE_WHITESPACE...)' } }],
  positionals: { rest: DOCTEST_FILE, min: 1 },
};

const JSON_TOOL: ProgramRule = {
  why: 'it reads one JSON file (or standard input) and writes it formatted to standard output or to a second file',
  options: [{ long: 'sort-keys' }, { long: 'no-ensure-ascii' }, { long: 'json-lines' }, { long: 'indent', value: 'number' }, { long: 'tab' }, { long: 'no-indent' }, { long: 'compact' }],
  positionals: { leading: ['read', 'write'] },
};

/** The modules python may run with -m, each with the rule for its arguments. */
export const PYTHON_MODULES: Readonly<Record<string, ProgramRule>> = {
  pytest: PYTEST,
  unittest: UNITTEST,
  doctest: DOCTEST,
  'json.tool': JSON_TOOL,
  pip: PIP,
};
