// Argument rules for build tools and package managers, plus the interpreters
// and shells of table-interpreters.ts. They may build, test and run the
// project; never install, fetch and run other code, change configuration, or
// take programs to run as option values. What the project's own recipes,
// scripts and tests do is bounded only by the sandbox (gate-rules "Honest limits").
import type { OptionRule, ProgramRule, ValueKind } from './rule-format.js';
import { INTERPRETER_RULES } from './table-interpreters.js';
import { PIP } from './table-python-modules.js';

/** A make goal: no "VAR=value" assignment (SHELL=, $(shell ...)), no ":" (:=, ::=), no "$". */
const MAKE_TARGET: ValueKind = { matches: /^[A-Za-z0-9_./+,@%][A-Za-z0-9_./+,@%-]*$/, describe: 'a target name (letters, digits and _ . / + , @ % -): variable assignments are denied' };

const MAKE: ProgramRule = {
  why: 'make runs only the targets named, from the makefile in the working directory: variable assignments, --eval, -f, -C and -I would change the recipes it runs; the recipes themselves are bounded only by the sandbox',
  options: [
    { short: 'j', long: 'jobs', value: 'number' },
    { short: 'k', long: 'keep-going' },
    { short: 'n', long: 'just-print' },
    { long: 'dry-run' },
    { short: 's', long: 'silent' },
    { long: 'quiet' },
    { short: 'B', long: 'always-make' },
    { short: 'q', long: 'question' },
    { short: 'w', long: 'print-directory' },
    { long: 'no-print-directory' },
    { short: 'v', long: 'version' },
  ],
  positionals: { rest: MAKE_TARGET },
};

const GO_WHY =
  'go may build, test, vet, format, run and list the packages in the read scopes; fetching or running code at a version (pkg@v), generate, get, install, tool, env -w and flags that run other programs (-exec, -toolexec, -vettool, -ldflags) or read other files (-modfile, -overlay, -C) are denied';

/** A package path or pattern (./..., ./cmd/x, example.com/m/pkg, main.go), checked as a read path; "@version" would fetch code. */
const GO_PACKAGE: ValueKind = { matches: /^[^@]+$/, describe: 'a package path or pattern without "@version"', path: 'read' };
/** go fmt rewrites the files of the packages it names. */
const GO_PACKAGE_WRITTEN: ValueKind = { matches: /^[^@]+$/, describe: 'a package path or pattern without "@version"', path: 'write' };
/** go run compiles leading .go files: an argument after them that ends in .go would be compiled too. */
const GO_RUN_ARGUMENT: ValueKind = { matches: /^(?![\s\S]*\.go$)/, describe: 'an argument for the program (a .go file here would be compiled; name the package instead)' };
const GO_TAGS: ValueKind = { matches: /^[A-Za-z0-9_.,]*$/, describe: 'a comma-separated list of build tags' };
const GO_MOD: ValueKind = { choices: ['readonly', 'vendor', 'mod'] };
const GO_DURATION: ValueKind = { matches: /^(?:[0-9]+(?:\.[0-9]+)?(?:ns|us|µs|ms|s|m|h))+$|^0$/, describe: 'a duration (30s, 5m, 1h30m)' };

function goRule(options: readonly OptionRule[], positionals: ProgramRule['positionals'], extra: Partial<ProgramRule> = {}): ProgramRule {
  return { why: GO_WHY, options, positionals, ...extra };
}

const GO: ProgramRule = {
  why: GO_WHY,
  options: [],
  positionals: {},
  subcommands: {
    build: goRule(
      [
        { word: 'o', value: 'write' },
        { word: 'v' },
        { word: 'x' },
        { word: 'n' },
        { word: 'a' },
        { word: 'race' },
        { word: 'cover' },
        { word: 'tags', value: GO_TAGS },
        { word: 'trimpath' },
        { word: 'mod', value: GO_MOD },
        { word: 'p', value: 'number' },
      ],
      { rest: GO_PACKAGE },
    ),
    test: goRule(
      [
        { word: 'v' },
        { word: 'run', value: 'pattern' },
        { word: 'skip', value: 'pattern' },
        { word: 'count', value: 'number' },
        { word: 'race' },
        { word: 'cover' },
        { word: 'coverprofile', value: 'write' },
        { word: 'timeout', value: GO_DURATION },
        { word: 'short' },
        { word: 'bench', value: 'pattern' },
        { word: 'benchmem' },
        { word: 'failfast' },
        { word: 'json' },
        { word: 'parallel', value: 'number' },
        { word: 'tags', value: GO_TAGS },
        { word: 'mod', value: GO_MOD },
      ],
      { rest: GO_PACKAGE },
    ),
    run: goRule([{ word: 'race' }, { word: 'tags', value: GO_TAGS }, { word: 'mod', value: GO_MOD }], { leading: [GO_PACKAGE], rest: GO_RUN_ARGUMENT, min: 1 }, { permute: false }),
    vet: goRule(
      [
        { word: 'tags', value: GO_TAGS },
        { word: 'mod', value: GO_MOD },
      ],
      { rest: GO_PACKAGE },
    ),
    fmt: goRule([{ word: 'n' }, { word: 'x' }], { rest: GO_PACKAGE_WRITTEN }),
    version: goRule([{ word: 'm' }, { word: 'v' }], { rest: 'read' }),
    list: goRule([{ word: 'json' }, { word: 'm' }, { word: 'f', value: 'literal' }, { word: 'e' }, { word: 'deps' }, { word: 'test' }], { rest: GO_PACKAGE }),
    env: goRule([{ word: 'json' }], { rest: { matches: /^[A-Z][A-Z0-9_]*$/, describe: 'the name of a go environment variable' } }),
    mod: goRule(
      [],
      {},
      {
        subcommands: {
          tidy: goRule([{ word: 'v' }, { word: 'e' }], {}),
          download: goRule([{ word: 'json' }, { word: 'x' }], {}),
          verify: goRule([], {}),
          graph: goRule([], {}),
          why: goRule([{ word: 'm' }], { rest: GO_PACKAGE }),
        },
      },
    ),
  },
};

const CARGO_WHY =
  'cargo may build, check, test, run, lint, format and document the project (its build scripts and tests are bounded only by the sandbox); install, --config, -Z and a target given as a file (it can name a linker to run) are denied';
/** A target triple, never a path to a target-spec JSON file. */
const TARGET_TRIPLE: ValueKind = { matches: /^[a-z0-9_]+(?:-[a-z0-9_.]+)+$/, describe: 'a target triple (x86_64-unknown-linux-gnu)' };
const CRATE_NAME: ValueKind = { matches: /^[A-Za-z0-9_-]+(?:@[0-9A-Za-z.+-]+)?$/, describe: 'a package name' };
const FEATURES: ValueKind = { matches: /^[A-Za-z0-9_\-/, +]*$/, describe: 'a list of features' };

const CARGO_SELECT: readonly OptionRule[] = [
  { short: 'r', long: 'release' },
  { short: 'p', long: 'package', value: CRATE_NAME },
  { short: 'F', long: 'features', value: FEATURES },
  { long: 'all-features' },
  { long: 'no-default-features' },
  { long: 'bin', value: CRATE_NAME },
  { short: 'j', long: 'jobs', value: 'number' },
  { long: 'target', value: TARGET_TRIPLE },
  { long: 'target-dir', value: 'write' },
  { long: 'manifest-path', value: 'read' },
  { long: 'locked' },
  { long: 'offline' },
  { short: 'v', long: 'verbose' },
  { short: 'q', long: 'quiet' },
];
/** For the commands that build many targets at once. */
const CARGO_TARGETS: readonly OptionRule[] = [{ long: 'workspace' }, { long: 'all-targets' }, { long: 'lib' }];

/** After "--", clippy passes these to the compiler: lint levels only, never -C (linker, codegen) or -o. */
const LINT_ARGUMENT: ValueKind = {
  matches: /^(?:-[DWAF]|--(?:deny|warn|allow|forbid))$|^(?:-[DWAF]|--(?:deny|warn|allow|forbid)=)?[a-z][a-z0-9_:-]*$/,
  describe: 'a lint level and name (-D warnings, -W clippy::pedantic)',
};

/** A test name filter, or after "--" an option of the test harness; its --logfile writes a file the rule cannot check. */
const TEST_ARGUMENT: ValueKind = { matches: /^(?!--logfile)/, describe: 'a test filter or test-harness option other than --logfile' };

function cargoRule(options: readonly OptionRule[], positionals: ProgramRule['positionals'] = {}, extra: Partial<ProgramRule> = {}): ProgramRule {
  return { why: CARGO_WHY, options, positionals, ...extra };
}

const CARGO: ProgramRule = {
  why: CARGO_WHY,
  options: [{ short: 'V', long: 'version' }],
  positionals: {},
  subcommands: {
    build: cargoRule([...CARGO_SELECT, ...CARGO_TARGETS]),
    check: cargoRule([...CARGO_SELECT, ...CARGO_TARGETS]),
    // A test name filter, then after "--" the test binary's own options.
    test: cargoRule([...CARGO_SELECT, ...CARGO_TARGETS, { long: 'no-run' }, { long: 'no-fail-fast' }, { long: 'doc' }], { rest: TEST_ARGUMENT }),
    run: cargoRule(CARGO_SELECT, { rest: 'literal' }, { permute: false }),
    clippy: cargoRule([...CARGO_SELECT, ...CARGO_TARGETS], { rest: LINT_ARGUMENT }),
    fmt: cargoRule([{ long: 'all' }, { long: 'check' }, { short: 'p', long: 'package', value: CRATE_NAME }, { long: 'manifest-path', value: 'read' }], { rest: { choices: ['--check'] } }),
    doc: cargoRule([...CARGO_SELECT, { long: 'no-deps' }, { long: 'document-private-items' }]),
    '': cargoRule([]),
  },
};

const NPM_WHY =
  "npm may run the project's scripts (run, test, start), list or view packages, and install them (install, ci: only confined, with --registry an http(s) URL permissions.net.allow lists); exec, x, config, init, publish, link, update and options that name a shell or node options (--script-shell, --node-options, --call) are denied; the scripts themselves are bounded only by the sandbox, and the network by net.allow";
const NPM_PACKAGE: ValueKind = {
  matches: /^(?:@[a-z0-9][a-z0-9._~-]*\/)?[a-z0-9][a-z0-9._~-]*(?:@[A-Za-z0-9._^~<>=*|-]+)?$/,
  describe: 'a registry package name, optionally @version (not a URL, path or git spec)',
};
const NPM_COMMON: readonly OptionRule[] = [
  { short: 's', long: 'silent' },
  // A workspace is named by its name or its directory: checked as a read path either way.
  { short: 'w', long: 'workspace', value: 'read' },
  { long: 'workspaces' },
];

function npmRule(options: readonly OptionRule[], positionals: ProgramRule['positionals'] = {}): ProgramRule {
  return { why: NPM_WHY, options: [...NPM_COMMON, ...options], positionals };
}

/** The script's name, then its arguments (after "--" even those that look like options). */
const NPM_RUN = npmRule([{ long: 'if-present' }], { rest: 'literal' });
const NPM_TEST = npmRule([], { rest: 'literal' });
const NPM_LIST = npmRule([{ short: 'a', long: 'all' }, { long: 'depth', value: 'number' }, { long: 'json' }], { rest: NPM_PACKAGE });
/** A registry is an http(s) URL whose host permissions.net.allow lists (issue 24); without one, npm's own (or .npmrc's) is decided by the sandbox's proxy. */
const NPM_REGISTRY: OptionRule = { long: 'registry', value: 'url' };
const NPM_VIEW = npmRule([{ long: 'json' }, NPM_REGISTRY], { leading: [NPM_PACKAGE], rest: 'literal', min: 1 });
/** install and ci fetch packages and run their install scripts: bounded by the sandbox, and by net.allow through its proxy. */
const NPM_INSTALL_OPTIONS: readonly OptionRule[] = [NPM_REGISTRY, { long: 'no-audit' }, { long: 'no-fund' }, { long: 'ignore-scripts' }];
const NPM_INSTALL = npmRule([...NPM_INSTALL_OPTIONS, { short: 'D', long: 'save-dev' }, { long: 'no-save' }], { rest: NPM_PACKAGE });

const NPM: ProgramRule = {
  why: NPM_WHY,
  options: [...NPM_COMMON, { short: 'v', long: 'version' }],
  positionals: {},
  subcommands: {
    run: NPM_RUN,
    'run-script': NPM_RUN,
    test: NPM_TEST,
    t: NPM_TEST,
    start: NPM_TEST,
    ls: NPM_LIST,
    list: NPM_LIST,
    outdated: npmRule([{ long: 'json' }, { long: 'all' }], { rest: NPM_PACKAGE }),
    view: NPM_VIEW,
    install: NPM_INSTALL,
    ci: npmRule(NPM_INSTALL_OPTIONS),
    '': { why: NPM_WHY, options: [], positionals: {} },
  },
};

export const DEV_RULES: readonly (readonly [string, ProgramRule])[] = [['make', MAKE], ['go', GO], ['cargo', CARGO], ['npm', NPM], ['pip', PIP], ['pip3', PIP], ...INTERPRETER_RULES];
