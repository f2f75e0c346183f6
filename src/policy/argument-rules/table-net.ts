// Argument rules for network clients, remote shells, containers and viewers.
// HTTP clients may fetch http(s) URLs and write only to files named in the
// write scopes; remote shells and editors, whose effects zotbox cannot check,
// are reduced to printing their version. Pagers only read the files named.
import { WRITES_CONTENTS_ONLY } from './argument-effects.js';
import type { OptionRule, ProgramRule, ValueKind } from './rule-format.js';

/** curl reads "@FILE" (and "@-") as the contents of a file for these values. */
const NOT_FILE_REFERENCE: ValueKind = { matches: /^(?!@)/, describe: 'text that does not start with "@" (curl would read a file); use --data-raw for data starting with "@"' };
/** --data-urlencode: "name=content" and "content" are text, "name@file" and "@file" read a file (an "=" anywhere makes it name=content). */
const URLENCODED_DATA: ValueKind = { matches: /^[^@]*$|=/, describe: 'name=content or content without "@" ("name@file" reads a file)' };
/** -w "@file" reads the format from a file, and %output{file} (curl 8.3+) writes to one. */
const WRITE_OUT_FORMAT: ValueKind = { matches: /^(?!@)(?![\s\S]*%output)/i, describe: 'a format that neither starts with "@" (a file) nor uses %output{...} (writes a file)' };
const SECONDS: ValueKind = { matches: /^[0-9]+(?:\.[0-9]+)?$/, describe: 'a number of seconds' };

const CURL: ProgramRule = {
  why: 'curl may fetch http(s) URLs and print what it gets; options that write or read files (-o, -O, -T, -K, -c, -b, -D, -F, --trace, --libcurl, "@file" values), other protocols, proxies and sockets are denied',
  options: [
    { short: 's', long: 'silent' },
    { short: 'S', long: 'show-error' },
    { short: 'L', long: 'location' },
    { short: 'f', long: 'fail' },
    { long: 'fail-with-body' },
    { short: 'I', long: 'head' },
    { short: 'i', long: 'include' },
    { short: 'v', long: 'verbose' },
    { short: 'H', long: 'header', value: NOT_FILE_REFERENCE },
    { short: 'X', long: 'request', value: { choices: ['GET', 'HEAD', 'POST', 'PUT', 'PATCH', 'DELETE', 'OPTIONS'] } },
    { short: 'd', long: 'data', value: NOT_FILE_REFERENCE },
    { long: 'data-raw', value: 'literal' },
    { long: 'data-binary', value: NOT_FILE_REFERENCE },
    { long: 'data-urlencode', value: URLENCODED_DATA },
    { long: 'json', value: NOT_FILE_REFERENCE },
    { short: 'G', long: 'get' },
    { short: 'm', long: 'max-time', value: SECONDS },
    { long: 'connect-timeout', value: SECONDS },
    { long: 'retry', value: 'number' },
    { short: 'A', long: 'user-agent', value: 'literal' },
    { short: 'e', long: 'referer', value: 'literal' },
    { long: 'compressed' },
    { short: 'w', long: 'write-out', value: WRITE_OUT_FORMAT },
    { short: 'u', long: 'user', value: 'literal' },
    { long: 'url', value: 'url' },
    { short: 'N', long: 'no-buffer' },
    { long: 'no-progress-meter' },
  ],
  positionals: { rest: 'url' },
};

const WGET_OUTPUT = 'output-named';

const WGET: ProgramRule = {
  why: 'wget saves a download under a name taken from the URL unless -O FILE names it, so URLs need -O or --spider (no -P: the name wget picks inside the directory is not checked); options that run programs (-e, --use-askpass), read files (-i, --post-file, --config) or write logs and cookies are denied',
  options: [
    { short: 'q', long: 'quiet' },
    { short: 'O', long: 'output-document', value: 'write', sets: WGET_OUTPUT },
    { long: 'spider', sets: WGET_OUTPUT },
    { short: 'S', long: 'server-response' },
    { short: 'T', long: 'timeout', value: SECONDS },
    { short: 't', long: 'tries', value: 'number' },
    { short: 'U', long: 'user-agent', value: 'literal' },
    { long: 'header', value: 'literal' },
    // "-nv" is getopt's -n with the value "v"; -nc, -nd, -nH and -np are not vetted.
    { short: 'n', value: { choices: ['v'] } },
    { long: 'no-verbose' },
    { long: 'post-data', value: 'literal' },
  ],
  positionals: {},
  flagPositionals: [[WGET_OUTPUT, { rest: 'url', min: 1 }]],
  marks: [WRITES_CONTENTS_ONLY],
};

const REMOTE_WHY = 'runs commands or copies files on other machines, and its options and configuration run local programs (ProxyCommand, LocalCommand, -o, -F, -S); zotbox can check neither';

const CONTAINER_WHY =
  'only read-only inspection (ps, images, version, info, logs, inspect) is allowed: run, exec, build, cp, pull, volumes and the daemon options can reach the host or other machines';
const CONTAINER_FORMAT: OptionRule = { long: 'format', value: 'literal' };
const CONTAINER_FILTER: OptionRule = { short: 'f', long: 'filter', value: 'literal' };

function containerRule(options: readonly OptionRule[], positionals: ProgramRule['positionals'] = {}): ProgramRule {
  return { why: CONTAINER_WHY, options, positionals };
}

const CONTAINERS: ProgramRule = {
  why: CONTAINER_WHY,
  options: [{ short: 'v', long: 'version' }],
  positionals: {},
  subcommands: {
    ps: containerRule([
      { short: 'a', long: 'all' },
      { short: 'q', long: 'quiet' },
      { short: 'n', long: 'last', value: 'number' },
      { short: 'l', long: 'latest' },
      { long: 'no-trunc' },
      { short: 's', long: 'size' },
      CONTAINER_FORMAT,
      CONTAINER_FILTER,
    ]),
    images: containerRule([{ short: 'a', long: 'all' }, { short: 'q', long: 'quiet' }, { long: 'no-trunc' }, { long: 'digests' }, CONTAINER_FORMAT, CONTAINER_FILTER], { rest: 'literal' }),
    version: containerRule([{ short: 'f', long: 'format', value: 'literal' }]),
    info: containerRule([{ short: 'f', long: 'format', value: 'literal' }]),
    // Not -f/--follow: it never ends.
    logs: containerRule(
      [
        { short: 'n', long: 'tail', value: { matches: /^(?:all|[0-9]+)$/, describe: 'a number of lines or "all"' } },
        { short: 't', long: 'timestamps' },
        { long: 'since', value: 'literal' },
        { long: 'until', value: 'literal' },
        { long: 'details' },
      ],
      { leading: ['literal'], min: 1 },
    ),
    inspect: containerRule(
      [
        { short: 'f', long: 'format', value: 'literal' },
        { short: 's', long: 'size' },
        { long: 'type', value: { choices: ['container', 'image', 'volume', 'network'] } },
      ],
      { rest: 'literal', min: 1 },
    ),
    '': containerRule([]),
  },
};

/** A file to page through: "+cmd" would be a command to the pager. */
const PAGED_FILE: ValueKind = { matches: /^[^+]/, describe: 'a file ("+" arguments are pager commands)', path: 'read' };

const LESS: ProgramRule = {
  why: 'less only shows the files named (read scopes); +cmd, -k/--lesskey-src/--lesskey-file (key bindings that run commands), -o/-O (log files) and tag files are denied',
  options: [
    { short: 'N', long: 'LINE-NUMBERS' },
    { short: 'n', long: 'line-numbers' },
    { short: 'S', long: 'chop-long-lines' },
    { short: 'R', long: 'RAW-CONTROL-CHARS' },
    { short: 'i', long: 'ignore-case' },
    { short: 'I', long: 'IGNORE-CASE' },
    { short: 'F', long: 'quit-if-one-screen' },
    { short: 'X', long: 'no-init' },
    { short: 's', long: 'squeeze-blank-lines' },
    { short: 'p', long: 'pattern', value: 'pattern' },
    { short: 'V', long: 'version' },
  ],
  positionals: { rest: PAGED_FILE },
};

const MORE: ProgramRule = {
  why: 'more only shows the files named (read scopes); +cmd arguments are denied',
  options: [
    { short: 'd', long: 'silent' },
    { short: 'f', long: 'logical' },
    { short: 'l', long: 'no-pause' },
    { short: 'c', long: 'print-over' },
    { short: 'p', long: 'clean-print' },
    { short: 's', long: 'squeeze' },
    { short: 'u', long: 'plain' },
    { short: 'n', long: 'lines', value: 'number' },
    { short: 'V', long: 'version' },
  ],
  positionals: { rest: PAGED_FILE },
  numericOption: true,
};

/** A page name and section, never a path (a name with "/" is read as a file). */
const MAN_PAGE: ValueKind = { matches: /^[A-Za-z0-9_][A-Za-z0-9_.:+@-]*$/, describe: 'a manual page name or section, not a file' };

const MAN: ProgramRule = {
  why: 'man only formats the installed manual pages: a pager, browser, preprocessor or configuration named on the command line (-P, -H, -p, -C, --pager, --html) is denied, and so is -l FILE (troff requests in a file such as .so and .cf read other files)',
  options: [
    { short: 'a', long: 'all' },
    { short: 'f', long: 'whatis' },
    { short: 'k', long: 'apropos', sets: 'search' },
    { short: 'w', long: 'where' },
    { short: 's', long: 'sections', value: { matches: /^[0-9a-z:,]+$/, describe: 'a list of sections (1:8)' } },
    { short: 'V', long: 'version' },
  ],
  positionals: { rest: MAN_PAGE },
  flagPositionals: [['search', { rest: 'pattern' }]],
};

const EDITOR: ProgramRule = {
  why: 'editors run commands from modelines, +cmd, -c and -S, and need a terminal, which agents do not have: only --version is allowed (edit files with the file tools)',
  options: [{ long: 'version' }],
  positionals: {},
};

export const NET_RULES: readonly (readonly [string, ProgramRule])[] = [
  ['curl', CURL],
  ['wget', WGET],
  ['ssh', { why: `ssh ${REMOTE_WHY}: only ssh -V (the version) is allowed`, options: [{ short: 'V' }], positionals: {} }],
  ['scp', { why: `scp ${REMOTE_WHY}: no arguments are allowed`, options: [], positionals: {} }],
  ['sftp', { why: `sftp ${REMOTE_WHY}: no arguments are allowed`, options: [], positionals: {} }],
  ['docker', CONTAINERS],
  ['podman', CONTAINERS],
  ['less', LESS],
  ['more', MORE],
  ['man', MAN],
  ['vim', EDITOR],
  ['vi', EDITOR],
  ['nvim', EDITOR],
];
