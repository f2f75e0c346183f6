// The built-in argument rules for commonly allowlisted programs (gate-rules
// §3-§5). Data, not code: src/policy/shell-decision.ts interprets each row, and
// test/policy/exec-rules.test.ts tries every denied option in every spelling
// (--opt, --opt=v, unambiguous abbreviations, combined short flags).
//
// Long options are denied together with every prefix of them (getopt_long and
// git accept unambiguous abbreviations, and an ambiguous one is an error in the
// tool anyway). Short options are denied wherever they appear in a combined
// group ("-rfo" denies -o), even where a letter is really an option's value:
// over-denial is the safe side.

export interface CommandRule {
  /** Long options (without "--") denied anywhere in the arguments, with their prefixes. */
  readonly deniedLong?: readonly string[];
  /** Short option letters denied anywhere in a "-xyz" group. */
  readonly deniedShort?: string;
  /** Single-dash words denied exactly (find's -exec, go's -toolexec). Also denied with "--" and "=value". */
  readonly deniedWords?: readonly string[];
  /** Arguments denied by prefix (git's "ext::" URLs, vim's "+cmd"). */
  readonly deniedPrefixes?: readonly string[];
  /** The first non-option argument must be one of these. */
  readonly allowedSubcommands?: readonly string[];
  /** The first non-option argument must not be one of these. */
  readonly deniedSubcommands?: readonly string[];
  /** Options allowed before the subcommand; any other option there is denied. */
  readonly allowedGlobalOptions?: readonly string[];
  /** Non-option arguments are file paths, checked against the read or write scopes like the file tools. */
  readonly pathArguments?: 'read' | 'write' | 'read-then-write';
  /** Positional arguments to skip before paths start (chmod's mode, grep's pattern). */
  readonly leadingNonPaths?: number;
  /** Short options that take a value, attached or in the next argument (so it is not a path). */
  readonly shortWithValue?: string;
  /**
   * Long options that take a required value, which may be the next argument
   * ("--suffix x"), so it is not a path. Only needed where miscounting shifts a
   * path to another kind (cp: the last path is the destination).
   */
  readonly longWithValue?: readonly string[];
  /** A named check on the program text (sed script, awk program). */
  readonly script?: 'sed' | 'awk';
  /** Why this row exists, for denial messages. */
  readonly why: string;
}

/** Programs never allowed, even when allowlisted: they run other programs or change privileges. */
export const ALWAYS_DENIED = new Map<string, string>([
  ['sudo', 'changes privileges'],
  ['doas', 'changes privileges'],
  ['su', 'changes privileges'],
  ['pkexec', 'changes privileges'],
  ['exec', 'replaces the shell'],
  ['eval', 'evaluates a string as shell code'],
  ['builtin', 'runs shell builtins'],
  ['source', 'runs a file as shell code'],
  ['.', 'runs a file as shell code'],
  ['xargs', 'runs commands built from its input'],
  ['watch', 'runs a command repeatedly through a shell'],
  ['parallel', 'runs commands built from its input'],
  ['script', 'runs a shell'],
  ['flock', 'runs a command through a shell'],
  ['npx', 'downloads and runs packages'],
  ['setsid', 'detaches a command from the run'],
  ['chroot', 'changes the root directory'],
  ['unshare', 'changes namespaces'],
  ['nsenter', 'enters other namespaces'],
]);

/** Shell builtins that only change the state of a shell, or exist only inside one: meaningless or dangerous here. */
export const SHELL_ONLY_BUILTINS = new Set([
  'export', 'typeset', 'declare', 'readonly', 'alias', 'unalias', 'hash', 'shopt', 'set', 'unset', 'trap', 'ulimit', 'umask',
  'exit', 'return', 'shift', 'wait', 'jobs', 'fg', 'bg', 'disown', 'enable', 'history', 'local', 'let', 'read', 'mapfile',
  'readarray', 'caller', 'compgen', 'complete', 'compopt', 'dirs', 'popd', 'pushd', 'fc', 'getopts', 'times', 'type', 'suspend', 'logout',
]);

/** Interpreters: code on the command line is denied; a script file still runs whatever it contains (a documented limit). */
const INTERPRETER: CommandRule = {
  deniedShort: 'ceEprI',
  deniedLong: ['eval', 'print', 'require', 'import', 'loader', 'experimental-loader', 'command', 'exec'],
  why: 'interpreters must not run code given on the command line',
};

/**
 * Shells are never wrappers: "-c SCRIPT" would hand a string to a second parser.
 * Allowlisting a shell allows running script files (a documented limit), never -c.
 */
const SHELL: CommandRule = {
  deniedShort: 'cis',
  deniedLong: ['rcfile', 'init-file', 'command', 'login'],
  why: 'a shell must not run a command string: that would be a second, unchecked parse',
};

const READ_PATHS = (shortWithValue = ''): CommandRule => ({ pathArguments: 'read', shortWithValue, why: 'its file arguments must be inside the read scopes' });
const WRITE_PATHS = (shortWithValue = '', leadingNonPaths = 0): CommandRule => ({ pathArguments: 'write', shortWithValue, leadingNonPaths, why: 'its file arguments must be inside the write scopes' });

export const COMMAND_RULES: ReadonlyMap<string, CommandRule> = new Map<string, CommandRule>([
  [
    'git',
    {
      allowedGlobalOptions: ['--no-pager', '-P', '--no-optional-locks', '--literal-pathspecs', '--no-replace-objects'],
      allowedSubcommands: [
        'status', 'log', 'diff', 'show', 'branch', 'tag', 'describe', 'rev-parse', 'rev-list', 'ls-files', 'ls-tree', 'cat-file',
        'blame', 'grep', 'shortlog', 'show-ref', 'merge-base', 'name-rev', 'whatchanged', 'count-objects', 'add', 'commit', 'restore', 'diff-tree', 'diff-files', 'diff-index',
      ],
      deniedLong: ['config-env', 'git-dir', 'work-tree', 'exec-path', 'upload-pack', 'receive-pack', 'output', 'ext-diff', 'textconv', 'open-files-in-pager', 'exec', 'template', 'file'],
      deniedShort: 'O',
      deniedPrefixes: ['ext::', 'fd::'],
      why: 'git can run programs through options, subcommands and URLs',
    },
  ],
  ['find', { deniedWords: ['-exec', '-execdir', '-ok', '-okdir', '-delete', '-fprint', '-fprint0', '-fprintf', '-fls'], why: 'find can run programs and write or delete files' }],
  ['rg', { deniedLong: ['pre', 'pre-glob', 'hostname-bin', 'search-zip'], deniedShort: 'z', why: 'ripgrep can run preprocessors' }],
  ['sed', { script: 'sed', deniedLong: ['in-place', 'file', 'expression', 'separate', 'sandbox', 'debug', 'null-data', 'zero-terminated', 'follow-symlinks', 'posix', 'regexp-extended', 'unbuffered', 'line-length', 'quiet', 'silent'], deniedShort: 'ifeslzuE', why: 'sed can run commands and write files; only "sed -n ADDRESSp" is allowed' }],
  ['awk', { script: 'awk', deniedShort: 'fE', deniedLong: ['file', 'exec', 'load', 'include', 'source'], why: 'awk can run commands and write files' }],
  ['gawk', { script: 'awk', deniedShort: 'fEilo', deniedLong: ['file', 'exec', 'load', 'include', 'source', 'dump-variables', 'profile', 'pretty-print', 'debug'], why: 'awk can run commands and write files' }],
  ['mawk', { script: 'awk', deniedShort: 'fW', why: 'awk can run commands and write files' }],
  ['nawk', { script: 'awk', deniedShort: 'f', why: 'awk can run commands and write files' }],
  ['sort', { deniedLong: ['output', 'compress-program', 'temporary-directory', 'files0-from'], deniedShort: 'oT', why: 'sort can write files and run a compressor' }],
  ['tar', { deniedLong: ['checkpoint-action', 'to-command', 'use-compress-program', 'info-script', 'new-volume-script', 'rsh-command', 'rmt-command', 'extract', 'get', 'directory', 'file'], deniedShort: 'IFxCf', why: 'tar can run programs and extract outside the scopes' }],
  ['zip', { deniedLong: ['unzip-command', 'test'], deniedShort: 'T', why: 'zip can run an unzip command' }],
  ['rsync', { deniedLong: ['rsh', 'rsync-path'], deniedShort: 'e', why: 'rsync can run a remote shell' }],
  ['man', { deniedLong: ['pager', 'html', 'browser', 'preprocessor'], deniedShort: 'PHp', why: 'man can run a pager or browser' }],
  ['make', { deniedLong: ['eval', 'file', 'makefile', 'directory', 'include-dir'], deniedShort: 'fCI', why: 'make can evaluate code and read makefiles from anywhere; it still runs the recipes it finds (a documented limit)' }],
  ['go', { deniedWords: ['-exec', '-toolexec', '-vettool', '-modfile'], deniedSubcommands: ['generate', 'env', 'tool', 'get', 'install'], why: 'go can run programs through flags and subcommands' }],
  ['npm', { deniedSubcommands: ['exec', 'x', 'install', 'i', 'add', 'config', 'c', 'set', 'init', 'create', 'publish', 'link', 'ci', 'update', 'explore', 'edit'], deniedLong: ['call', 'script-shell', 'node-options'], deniedShort: 'c', why: 'npm can install and run packages' }],
  ['pip', { deniedSubcommands: ['install', 'download', 'wheel', 'config'], deniedLong: ['index-url', 'extra-index-url', 'trusted-host', 'find-links'], deniedShort: 'if', why: 'pip can install and run packages' }],
  ['pip3', { deniedSubcommands: ['install', 'download', 'wheel', 'config'], deniedLong: ['index-url', 'extra-index-url', 'trusted-host', 'find-links'], deniedShort: 'if', why: 'pip can install and run packages' }],
  ['bash', SHELL],
  ['sh', SHELL],
  ['dash', SHELL],
  ['zsh', SHELL],
  ['ksh', SHELL],
  ['fish', SHELL],
  ['python', INTERPRETER],
  ['python3', INTERPRETER],
  ['node', INTERPRETER],
  ['ruby', INTERPRETER],
  ['perl', INTERPRETER],
  ['php', INTERPRETER],
  ['lua', INTERPRETER],
  ['deno', { ...INTERPRETER, deniedSubcommands: ['eval', 'repl'] }],
  ['bun', { ...INTERPRETER, deniedSubcommands: ['x', 'add', 'install'] }],
  ['curl', { deniedLong: ['upload-file', 'output', 'remote-name', 'config', 'output-dir', 'remote-name-all', 'dump-header', 'trace', 'trace-ascii', 'cookie-jar', 'libcurl', 'stderr', 'etag-save', 'hsts', 'alt-svc'], deniedShort: 'ToOKcD', deniedPrefixes: ['file:', 'FILE:'], why: 'curl can upload and write files' }],
  ['wget', { deniedLong: ['output-document', 'output-file', 'post-file', 'input-file', 'execute', 'body-file', 'directory-prefix', 'config'], deniedShort: 'OoieP', why: 'wget can write files and run commands' }],
  ['ssh', { deniedShort: 'oFJLRDWw', why: 'ssh can run local commands through options and forward ports' }],
  ['scp', { deniedShort: 'oFJS', why: 'scp can run local commands through options' }],
  ['sftp', { deniedShort: 'oFJSD', why: 'sftp can run local commands through options' }],
  ['docker', { deniedLong: ['volume', 'mount', 'privileged', 'device', 'pid', 'network', 'net', 'cap-add', 'security-opt', 'userns', 'ipc', 'uts', 'host', 'config', 'context'], deniedShort: 'vH', why: 'docker can expose the host' }],
  ['podman', { deniedLong: ['volume', 'mount', 'privileged', 'device', 'pid', 'network', 'net', 'cap-add', 'security-opt', 'userns', 'ipc', 'uts', 'url', 'connection'], deniedShort: 'v', why: 'podman can expose the host' }],
  ['vim', { deniedShort: 'cSuUs', deniedLong: ['cmd', 'startuptime'], deniedPrefixes: ['+'], why: 'vim runs commands given on the command line' }],
  ['vi', { deniedShort: 'cSuUs', deniedLong: ['cmd'], deniedPrefixes: ['+'], why: 'vi runs commands given on the command line' }],
  ['nvim', { deniedShort: 'cSuUs', deniedLong: ['cmd', 'startuptime', 'listen'], deniedPrefixes: ['+'], why: 'nvim runs commands given on the command line' }],
  ['less', { deniedPrefixes: ['+'], deniedLong: ['lesskey-file', 'log-file', 'LOG-FILE'], deniedShort: 'koO', why: 'less can run commands and write logs' }],
  ['more', { deniedPrefixes: ['+'], why: 'more can run commands' }],
  // File readers and writers: their paths obey the same scopes as the file tools.
  ['cat', READ_PATHS()],
  ['head', READ_PATHS('nc')],
  ['tail', READ_PATHS('ncs')],
  ['wc', READ_PATHS()],
  ['ls', READ_PATHS('wTI')],
  ['stat', READ_PATHS('c')],
  ['file', READ_PATHS('mefFP')],
  ['du', READ_PATHS('dBtX')],
  ['nl', READ_PATHS('bdfhilnsvw')],
  ['od', READ_PATHS('AjNSstw')],
  ['strings', READ_PATHS('ntT')],
  ['md5sum', READ_PATHS()],
  ['sha1sum', READ_PATHS()],
  ['sha256sum', READ_PATHS()],
  ['sha512sum', READ_PATHS()],
  ['cmp', READ_PATHS('inI')],
  ['tee', WRITE_PATHS()],
  ['touch', { ...WRITE_PATHS('dt'), deniedShort: 'r', deniedLong: ['reference'] }],
  ['mkdir', WRITE_PATHS('m')],
  ['rm', WRITE_PATHS()],
  ['rmdir', WRITE_PATHS()],
  ['truncate', { ...WRITE_PATHS('s'), deniedShort: 'r', deniedLong: ['reference'] }],
  // A mode written like an option ("-w", "-w,u+x") would be read as one here, and the file after it as the mode.
  ['chmod', { ...WRITE_PATHS('', 1), deniedLong: ['reference'], deniedShort: 'rwxXstugoa0123456789', why: 'its file arguments must be inside the write scopes; write a mode that removes permissions as a-w, not -w' }],
  ['cp', { pathArguments: 'read-then-write', shortWithValue: 'S', longWithValue: ['suffix', 'sparse', 'no-preserve'], deniedShort: 't', deniedLong: ['target-directory'], why: 'it reads its sources and writes its last argument: sources inside the read scopes, destination inside the write scopes' }],
  ['mv', { pathArguments: 'write', shortWithValue: 'S', deniedShort: 't', deniedLong: ['target-directory'], why: 'it moves files: every path inside the write scopes' }],
  ['ln', { deniedShort: 'st', deniedLong: ['symbolic', 'target-directory'], pathArguments: 'write', why: 'links can point outside the scopes; hard links only, inside the write scopes' }],
]);
