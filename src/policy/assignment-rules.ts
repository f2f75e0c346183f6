// Variables an agent may set before a command (gate-rules §5, issue 10 item 5):
// any name outside the documented dangerous set, with a literal value (the parser
// has already refused every expansion). Names are compared case-insensitively.
// Data plus one pure decision; never reads process.env. The fixed environment
// (src/host/executors/command-environment.ts) still wins over these for the names it sets.
import { deny, type Check } from './shell-check.js';

export interface DangerousVariables {
  /** Exact names. */
  readonly names?: readonly string[];
  readonly prefixes?: readonly string[];
  readonly suffixes?: readonly string[];
  /** Completes "NAME is denied: it ...". */
  readonly why: string;
}

/**
 * The dangerous set. The names gate-rules §5 requires, and, marked "+", more of
 * the same classes (see docs/permissions.md, *Assignments*, for why each).
 */
export const DANGEROUS_VARIABLES: readonly DangerousVariables[] = [
  {
    prefixes: ['LD_', 'DYLD_', 'MALLOC_', '_RLD', 'LDR_'],
    names: ['GCONV_PATH', 'GLIBC_TUNABLES', 'LOCPATH', 'NLSPATH', 'TZDIR', 'GETCONF_DIR', 'DATEMSK', 'PATH_LOCALE', 'SHLIB_PATH', 'LIBPATH', 'AUTHSTATE', 'VAR_ACE', 'USR_ACE', 'DLC_ACE'], // + all but LD_*, DYLD_*
    why: 'changes what the loader or the C library loads into every program',
  },
  {
    prefixes: ['XDG_'],
    names: ['PATH', 'HOME', 'TMPDIR', 'TMP', 'TEMP', 'TEMPDIR', 'CDPATH'], // + TMPDIR and the rest after XDG_*
    why: 'changes where programs find other programs, their configuration, or where they write temporary files',
  },
  {
    prefixes: ['BASH_FUNC_'],
    names: [
      'BASH_ENV',
      'ENV',
      'IFS',
      'PS1',
      'PS2',
      'PS3',
      'PS4',
      'PROMPT_COMMAND',
      'SHELL',
      'SHELLOPTS',
      'BASHOPTS',
      'BASH_XTRACEFD',
      'BASH_LOADABLES_PATH',
      'GLOBIGNORE',
      'HISTFILE',
      'ZDOTDIR',
      'NULLCMD',
      'READNULLCMD',
      'TMPPREFIX',
      'FPATH',
      'INPUTRC',
      'FCEDIT',
    ],
    why: 'changes how shells start or run',
  },
  {
    prefixes: ['GIT_', 'SSH_'],
    suffixes: ['_ASKPASS'],
    why: 'makes git or ssh run programs, read other configuration or use other credentials',
  },
  {
    prefixes: ['LESS', 'MAN_', 'NVIM', 'GROFF_'],
    suffixes: ['PAGER', 'EDITOR'],
    names: ['VISUAL', 'BROWSER', 'MANOPT', 'MANPATH', 'MANROFFOPT', 'MANROFFSEQ', 'VIMINIT', 'GVIMINIT', 'EXINIT', 'MYVIMRC', 'VIM', 'VIMRUNTIME', 'TERMINFO', 'TERMINFO_DIRS', 'TERMCAP', 'TERMPATH'],
    why: 'names a program to run, or makes a pager, editor or terminal library run commands or load files',
  },
  {
    prefixes: ['PYTHON', 'PERL', 'RUBY', 'GEM_', 'BUNDLE_', 'LUA_', 'PHP', 'R_PROFILE', 'R_ENVIRON', 'R_LIBS', 'JULIA_', 'ERL_', 'GUILE_', 'DENO_', 'BUN_'],
    names: [
      'NODE_OPTIONS',
      'NODE_PATH',
      'NODE_REPL_EXTERNAL_MODULE',
      'NODE_V8_COVERAGE',
      'NODE_REDIRECT_WARNINGS',
      'NODE_ICU_DATA',
      'NODE_REPL_HISTORY',
      'NODE_COMPILE_CACHE',
      'ELIXIR_ERL_OPTIONS',
      'TCLLIBPATH',
      'PYTEST_ADDOPTS',
      'PYTEST_PLUGINS',
    ],
    why: 'makes an interpreter load or run other code, or write files elsewhere',
  },
  {
    prefixes: ['JAVA_', 'MAVEN_', 'GRADLE_', 'DOTNET_', 'COMPLUS_', 'CORECLR_'],
    names: ['_JAVA_OPTIONS', 'JDK_JAVA_OPTIONS', 'CLASSPATH', 'M2_HOME', 'SBT_OPTS', 'ANT_OPTS'],
    why: 'makes a JVM or .NET runtime load agents, profilers, startup hooks or other code',
  },
  {
    prefixes: ['CGO_', 'CARGO_', 'RUSTC_', 'RUSTUP_', 'PKG_CONFIG', 'CMAKE_', 'CCACHE_', 'DISTCC_', 'GOTELEMETRY'],
    names: [
      'GOFLAGS',
      'GOROOT',
      'GOPATH',
      'GOBIN',
      'GOTOOLCHAIN',
      'GOENV',
      'GOPROXY',
      'GOSUMDB',
      'GONOSUMDB',
      'GONOSUMCHECK',
      'GONOPROXY',
      'GOPRIVATE',
      'GOINSECURE',
      'GOVCS',
      'GOCACHE',
      'GOCACHEPROG',
      'GOMODCACHE',
      'GOTMPDIR',
      'GOWORK',
      'GOCOVERDIR',
      'GOAUTH',
      'RUSTC',
      'RUSTFLAGS',
      'RUSTDOC',
      'RUSTDOCFLAGS',
      'CC',
      'CXX',
      'CPP',
      'LD',
      'AR',
      'AS',
      'CFLAGS',
      'CXXFLAGS',
      'CPPFLAGS',
      'LDFLAGS',
      'LDLIBS',
      'COMPILER_PATH',
      'GCC_EXEC_PREFIX',
      'LIBRARY_PATH',
      'CPATH',
      'C_INCLUDE_PATH',
      'CPLUS_INCLUDE_PATH',
      'OBJC_INCLUDE_PATH',
      'MAKE',
      'MAKEFLAGS',
      'GNUMAKEFLAGS',
      'MFLAGS',
      'MAKEFILES',
    ],
    why: 'makes a compiler or build tool run other programs, load other code, or write elsewhere',
  },
  {
    prefixes: ['NPM_', 'YARN_', 'PNPM_', 'COREPACK_', 'PIP_', 'PIPX_', 'UV_', 'POETRY_', 'COMPOSER_'],
    why: 'changes where a package manager installs from, what it runs or where it writes',
  },
  {
    prefixes: ['ZSTD_'],
    names: [
      'AWKPATH',
      'AWKLIBPATH',
      'RIPGREP_CONFIG_PATH',
      'GREP_OPTIONS',
      'TAR_OPTIONS',
      'TAPE',
      'ZIP',
      'ZIPOPT',
      'MORE',
      'UNZIP',
      'UNZIPOPT',
      'GZIP',
      'BZIP',
      'BZIP2',
      'XZ_OPT',
      'XZ_DEFAULTS',
      'WGETRC',
      'SYSTEM_WGETRC',
      'CURL_HOME',
      'NETRC',
      'SQLITE_HISTORY',
      'PSQLRC',
      'PSQL_HISTORY',
      'PGSERVICEFILE',
      'MYSQL_HOME',
      'MYSQL_HISTFILE',
      'SIMPLE_BACKUP_SUFFIX',
      'VERSION_CONTROL',
      'MAGIC',
      'GNUPGHOME',
    ],
    why: 'makes a program read options, a configuration or a history file from elsewhere, or name the files it writes',
  },
  {
    names: ['POSIXLY_CORRECT', '_POSIX2_VERSION'],
    why: 'changes how programs read their options, so they would not read the arguments as the gate checked them',
  },
  {
    prefixes: ['SSL_', 'OPENSSL_', 'GNUTLS_', 'KRB5', 'GTK_', 'GIO_', 'GDK_', 'QT_'],
    // curl reads <scheme>_PROXY for every scheme it speaks (wss_proxy, smtp_proxy...): the whole class (issue 24).
    suffixes: ['_PROXY'],
    names: [
      'SOCKS_SERVER',
      'SOCKS5_SERVER',
      'HTTP_PROXY',
      'HTTPS_PROXY',
      'ALL_PROXY',
      'NO_PROXY',
      'FTP_PROXY',
      'RSYNC_PROXY',
      'RSYNC_RSH',
      'RSYNC_CONNECT_PROG',
      'SSLKEYLOGFILE',
      'REQUESTS_CA_BUNDLE',
      'CURL_CA_BUNDLE',
      'NODE_EXTRA_CA_CERTS',
      'NODE_TLS_REJECT_UNAUTHORIZED',
      'HOSTALIASES',
      'RES_OPTIONS',
      'LOCALDOMAIN',
      'RESOLV_HOST_CONF',
      'NIS_PATH',
    ],
    why: 'changes where a program connects, how it resolves names, which certificates it trusts, or runs a program to connect',
  },
  {
    prefixes: ['DOCKER_', 'CONTAINERS_'],
    names: [
      'DISPLAY',
      'WAYLAND_DISPLAY',
      'XAUTHORITY',
      'DBUS_SESSION_BUS_ADDRESS',
      'DBUS_SYSTEM_BUS_ADDRESS',
      'CONTAINER_HOST',
      'KUBECONFIG',
      'AWS_CONFIG_FILE',
      'AWS_SHARED_CREDENTIALS_FILE',
      'GOOGLE_APPLICATION_CREDENTIALS',
      'CLOUDSDK_CONFIG',
      'AZURE_CONFIG_DIR',
    ],
    why: 'connects a program to another service (display, session bus, container engine) or names a configuration that can run programs',
  },
];

/** Names allowed only with values that cannot name a file: the C library and ncurses would load data from such a path. */
export const CONSTRAINED_VALUES: readonly { readonly names?: readonly string[]; readonly prefixes?: readonly string[]; readonly pattern: RegExp; readonly rule: string }[] = [
  // Only C, POSIX and UTF-8 locales: in a legacy multibyte encoding (Shift-JIS, GBK) a second byte can be "\\" or "[", so sed and awk would read program text otherwise than the gate parsed it.
  {
    names: ['LANG'],
    prefixes: ['LC_'],
    pattern: /^(?:(?:C|POSIX)(?:\.(?:UTF-8|utf8))?|[A-Za-z]{2,3}(?:_[A-Z]{2})?\.(?:UTF-8|utf8)(?:@[A-Za-z]+)?)$/,
    rule: 'must be C, POSIX or a UTF-8 locale such as en_US.UTF-8: another encoding could make sed and awk read their program text otherwise than it was checked, and a path would load locale data from a file',
  },
  { names: ['LANGUAGE', 'TERM'], pattern: /^(?!.*\.\.)[^/]*$/, rule: 'may not contain / or ..: it would load locale or terminal data from that path' },
  { names: ['TZ'], pattern: /^(?!:?\/)(?!.*\.\.)/, rule: 'may not be an absolute path or contain ..: it would load time-zone data from that file (a zone name such as Europe/Paris is fine)' },
];

function matches(upper: string, entry: { readonly names?: readonly string[]; readonly prefixes?: readonly string[]; readonly suffixes?: readonly string[] }): boolean {
  return (
    (entry.names?.some((n) => n.toUpperCase() === upper) ?? false) ||
    (entry.prefixes?.some((p) => upper.startsWith(p.toUpperCase())) ?? false) ||
    (entry.suffixes?.some((s) => upper.endsWith(s.toUpperCase())) ?? false)
  );
}

/** Why a name is in the dangerous set, or undefined when it is not. */
export function dangerousVariable(name: string): string | undefined {
  const upper = name.toUpperCase();
  return DANGEROUS_VARIABLES.find((entry) => matches(upper, entry))?.why;
}

/** The rule a name's value must follow, when the name is allowed only with checked values; else undefined. */
export function constrainedVariable(name: string): string | undefined {
  const upper = name.toUpperCase();
  return CONSTRAINED_VALUES.find((entry) => matches(upper, entry))?.rule;
}

/** Decides one NAME=value (a leading assignment or env's). */
export function decideAssignment(name: string, value: string): Check<null> {
  const why = dangerousVariable(name);
  if (why !== undefined) return deny('ZB_POLICY_SHELL_ASSIGNMENT', `${name}=… is denied: ${name} is in the dangerous set, it ${why}. Pass the setting as an argument instead, or leave it out.`);
  const upper = name.toUpperCase();
  const constrained = CONSTRAINED_VALUES.find((entry) => matches(upper, entry));
  if (constrained !== undefined && !constrained.pattern.test(value)) {
    return deny('ZB_POLICY_SHELL_ASSIGNMENT', `${name}=${JSON.stringify(value)} is denied: its value ${constrained.rule}.`);
  }
  return { ok: true, value: null };
}

/** Decides env -u NAME: removing a variable of the dangerous set would undo the fixed environment (PATH, the git and pager settings). */
export function decideUnset(name: string): Check<null> {
  const why = dangerousVariable(name);
  if (why !== undefined) return deny('ZB_POLICY_SHELL_ASSIGNMENT', `env -u ${name} is denied: ${name} is in the dangerous set (it ${why}), and the fixed environment commands run with may set it.`);
  return { ok: true, value: null };
}
