// Argument rules for interpreters and shells (part of table-dev.ts): a script
// file in the read scopes, then literal arguments for it. Code given on the
// command line or on standard input is never allowed; what a script does is
// bounded only by the sandbox (gate-rules "Honest limits").
import type { OptionRule, ProgramRule, ValueKind } from './rule-format.js';
import { ISOLATED_MARK } from './skill-module.js';
import { PYTHON_MODULES } from './table-python-modules.js';

/** Set by --version, --help and the like: the program prints and exits, so it takes no script. */
export const INFO = 'prints-and-exits';

/**
 * A script file: read like any path, but never "-" (code from standard input),
 * "+…" (an option to shells) or a URL.
 */
export const SCRIPT: ValueKind = {
  // A "scheme:" prefix would make deno or bun fetch code (https:, npm:, jsr:).
  matches: /^(?!-$)(?![A-Za-z][A-Za-z0-9+.-]*:)[^+]/,
  describe: 'a script file: not "-" (standard input), not starting with "+", not a URL or "npm:"-style specifier',
  path: 'read',
};

const NO_CODE = 'code given on the command line or on standard input is denied';
const SCRIPT_LIMIT = 'a script file in the read scopes runs, and what it does is bounded only by the sandbox';

/** A script and its literal arguments; options end at the script, as the interpreters read them. */
function scriptRule(why: string, options: readonly OptionRule[], flagPositionals: ProgramRule['flagPositionals'] = [[INFO, {}]]): ProgramRule {
  return { why, options, positionals: { leading: [SCRIPT], rest: 'literal', min: 1 }, flagPositionals, permute: false };
}

/** -W ACTION:MESSAGE:CATEGORY:MODULE:LINENO, where CATEGORY is a built-in warning class: a dotted one would be imported. */
const WARNING_FILTER: ValueKind = {
  matches: /^(?:default|error|ignore|always|all|module|once|[deiamo])(?::[^:]*(?::(?:[A-Za-z]*Warning)?(?::[^:]*(?::[0-9]*)?)?)?)?$/,
  describe: 'a warning filter ACTION[:MESSAGE[:CATEGORY[:MODULE[:LINENO]]]] whose category is a built-in warning class',
};

/** python -m NAME of a module the skill bundles, run from the skill's folder (skill-module.ts): its arguments are its own. */
const SKILL_MODULE: ProgramRule = {
  why: "a skill's own module runs from the skill's read-only folder, like a script of it, with every later argument its own; what it does is bounded only by the sandbox",
  options: [],
  positionals: { rest: 'literal' },
};

const PYTHON = scriptRule(
  `${NO_CODE} (-c, -i, "-"), and so are -m modules that take code or other programs (timeit, pdb, cProfile, code...): -m runs only the listed modules, each with its own rule, and, from a skill's folder, the skill's own modules; ${SCRIPT_LIMIT}`,
  [
    { short: 'u' },
    { short: 'B' },
    { short: 'O' },
    // A category names a class to import ("ignore::pkg.Mod"): only built-in warning classes.
    { short: 'W', value: WARNING_FILTER },
    // -X pycache_prefix=DIR writes elsewhere and -X frozen_modules changes what loads: only these are vetted.
    { short: 'X', value: { choices: ['importtime', 'dev', 'utf8', 'faulthandler', 'tracemalloc'] } },
    { short: 'E' },
    { short: 'I', sets: ISOLATED_MARK },
    { short: 's' },
    { short: 'S' },
    { short: 'q' },
    { short: 'b' },
    { short: 'v' },
    { short: 'V', long: 'version', sets: INFO },
    { short: 'h', long: 'help', sets: INFO },
    { short: 'm', value: { choices: Object.keys(PYTHON_MODULES) }, selects: PYTHON_MODULES, selectsOtherwise: { value: 'skill-module', rule: SKILL_MODULE }, endsOptions: true },
  ],
);

const NODE = scriptRule(
  `${NO_CODE} (-e, -p, "-"), and so are options that load other code (-r, --import, --loader, --env-file, --inspect); ${SCRIPT_LIMIT}`,
  [
    { short: 'v', long: 'version', sets: INFO },
    { short: 'h', long: 'help', sets: INFO },
    { short: 'c', long: 'check' },
    { long: 'test', sets: 'test' },
    { long: 'test-name-pattern', value: 'pattern' },
    { long: 'test-only' },
    // A reporter can also be a module path, which would load it: only the built-in ones.
    { long: 'test-reporter', value: { choices: ['spec', 'tap', 'dot', 'junit', 'lcov'] } },
    { long: 'test-concurrency', value: 'number' },
    { long: 'test-timeout', value: 'number' },
    { long: 'experimental-test-coverage' },
    { long: 'enable-source-maps' },
    { long: 'no-warnings' },
    { long: 'trace-warnings' },
    { long: 'no-deprecation' },
    { long: 'unhandled-rejections', value: { choices: ['strict', 'warn', 'throw', 'none', 'warn-with-error-code'] } },
    { long: 'max-old-space-size', value: 'number' },
  ],
  [
    [INFO, {}],
    ['test', { rest: SCRIPT }],
  ],
);

const PERL = scriptRule(`${NO_CODE} (-e, -E, -M, -m, -n, -p, -F, "-"), and so are options that load code or edit files (-I, -x, -i, -d, -S); ${SCRIPT_LIMIT}`, [
  { short: 'w' },
  { short: 'W' },
  { short: 'X' },
  { short: 'c' },
  { short: 'T' },
  { short: 't' },
  { short: 'v', sets: INFO },
  { short: 'V', sets: INFO },
  { short: 'h', sets: INFO },
]);

const RUBY = scriptRule(`${NO_CODE} (-e, -n, -p, "-"), and so are options that load code or edit files (-r, -I, -x, -i, -S, -C); ${SCRIPT_LIMIT}`, [
  { short: 'w' },
  { short: 'W', optionalValue: { matches: /^[0-2]$/, describe: 'a warning level: 0, 1 or 2' } },
  { short: 'c' },
  { short: 'v', sets: INFO },
  { long: 'version', sets: INFO },
  { short: 'h', long: 'help', sets: INFO },
]);

const PHP = scriptRule(`${NO_CODE} (-r, -a, -B, -R, -E, -F, "-"), and so are options that change settings or serve files (-d, -c, -z, -S, -t); ${SCRIPT_LIMIT}`, [
  { short: 'l', long: 'syntax-check' },
  { short: 'n', long: 'no-php-ini' },
  { short: 'v', long: 'version', sets: INFO },
  { short: 'i', long: 'info', sets: INFO },
  { short: 'm', long: 'modules', sets: INFO },
  { short: 'h', long: 'help', sets: INFO },
]);

const LUA = scriptRule(`${NO_CODE} (-e, -i, "-"), and so is loading a library (-l); ${SCRIPT_LIMIT}`, [{ short: 'v', sets: INFO }, { short: 'E' }, { short: 'W' }]);

/** `set -o` names a script may ask for; the rest change how input is read or what is logged where. */
const SHELL_OPTION_NAMES: ValueKind = { choices: ['errexit', 'nounset', 'pipefail', 'xtrace', 'verbose', 'noexec'] };

const SHELL = scriptRule(
  `a command string (-c), standard input (-s, "-"), an interactive or login shell (-i, -l, --rcfile) and shopt options (-O) are denied, so the gate's parse is the only one; ${SCRIPT_LIMIT}`,
  [{ short: 'e' }, { short: 'u' }, { short: 'x' }, { short: 'v' }, { short: 'n' }, { short: 'o', value: SHELL_OPTION_NAMES }, { long: 'norc' }, { long: 'noprofile' }, { long: 'version', sets: INFO }],
);

const DENO_WHY =
  "deno runs scripts and tests with none of its permissions granted (no --allow-*, -A), so without a terminal deno itself denies them files, network and environment; deno task runs the project's tasks like npm run; code on the command line (eval, repl, standard input) and install, compile and upgrade are denied";
const DENO_QUIET: OptionRule = { short: 'q', long: 'quiet' };

const DENO: ProgramRule = {
  why: DENO_WHY,
  options: [{ short: 'V', long: 'version', sets: INFO }],
  positionals: {},
  subcommands: {
    run: {
      why: DENO_WHY,
      options: [DENO_QUIET, { long: 'no-check' }, { long: 'no-remote' }, { long: 'cached-only' }, { long: 'no-prompt' }],
      positionals: { leading: [SCRIPT], rest: 'literal', min: 1 },
      permute: false,
    },
    test: {
      why: DENO_WHY,
      options: [DENO_QUIET, { long: 'no-check' }, { long: 'filter', value: 'pattern' }, { long: 'fail-fast', optionalValue: 'number' }, { long: 'parallel' }],
      positionals: { rest: SCRIPT },
    },
    // Without --check it rewrites the files it names.
    fmt: { why: DENO_WHY, options: [DENO_QUIET, { long: 'check', sets: 'check' }], positionals: { rest: 'write' }, flagPositionals: [['check', { rest: SCRIPT }]] },
    lint: { why: DENO_WHY, options: [DENO_QUIET], positionals: { rest: SCRIPT } },
    check: { why: DENO_WHY, options: [DENO_QUIET], positionals: { rest: SCRIPT } },
    // The task's name, then its arguments.
    task: { why: DENO_WHY, options: [DENO_QUIET], positionals: { rest: 'literal' }, permute: false },
    // Bare deno starts a REPL that reads code from standard input: only --version.
    '': { why: DENO_WHY, options: [], positionals: { min: 1 }, flagPositionals: [[INFO, {}]] },
  },
};

const BUN_WHY = `bun runs package.json scripts, script files in the read scopes and tests; ${NO_CODE} (-e, -p), and so are preloads (-r) and installing or downloading packages (install, add, x)`;

const BUN: ProgramRule = {
  why: BUN_WHY,
  options: [{ short: 'v', long: 'version' }, { long: 'revision' }],
  positionals: {},
  subcommands: {
    // The name of a package.json script or a script file: checked as a read path either way.
    run: { why: BUN_WHY, options: [{ long: 'silent' }], positionals: { leading: [SCRIPT], rest: 'literal' }, permute: false },
    test: {
      why: BUN_WHY,
      options: [{ short: 't', long: 'test-name-pattern', value: 'pattern' }, { long: 'timeout', value: 'number' }, { long: 'coverage' }, { long: 'bail', optionalValue: 'number' }],
      positionals: { rest: 'pattern' },
    },
    '': { why: BUN_WHY, options: [], positionals: {} },
  },
};

export const INTERPRETER_RULES: readonly (readonly [string, ProgramRule])[] = [
  ['python', PYTHON],
  ['python3', PYTHON],
  ['node', NODE],
  ['perl', PERL],
  ['ruby', RUBY],
  ['php', PHP],
  ['lua', LUA],
  ['deno', DENO],
  ['bun', BUN],
  ['bash', SHELL],
  ['sh', SHELL],
  ['dash', SHELL],
  ['zsh', SHELL],
  ['ksh', SHELL],
  ['fish', SHELL],
];

/**
 * The same interpreters under their versioned or other names (python3.12,
 * nodejs, perl5.36, mksh...): each gets the rule of the name it stands for, so
 * the name a program is installed under never opens -c or -e.
 */
export const INTERPRETER_ALIASES: readonly (readonly [pattern: RegExp, rule: string])[] = [
  [/^(?:python[23]?(?:\.[0-9]+)?|pypy3?(?:\.[0-9]+)?)$/, 'python3'],
  [/^nodejs$/, 'node'],
  [/^perl5?(?:\.[0-9]+)*$/, 'perl'],
  [/^ruby[0-9]+(?:\.[0-9]+)*$/, 'ruby'],
  [/^php[0-9]+(?:\.[0-9]+)*$/, 'php'],
  [/^lua(?:5(?:\.[0-9])?|jit)$/, 'lua'],
  [/^(?:rbash|ash|mksh|lksh|pdksh|yash|posh|csh|tcsh)$/, 'sh'],
];
