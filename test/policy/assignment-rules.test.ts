// Leading assignments (gate-rules §5, issue 10 item 5): the names below are
// written out by hand from the spec and from docs/permissions.md, never taken
// from the table under test.
import test from 'ava';
import { decideAssignment, decideUnset } from '../../src/policy/assignment-rules.js';

/** gate-rules §5's minimum set, one or more names for each of its entries. */
const SPEC_SET = [
  'LD_PRELOAD', 'LD_LIBRARY_PATH', 'LD_AUDIT', 'DYLD_INSERT_LIBRARIES', 'PATH', 'GIT_DIR', 'GIT_CONFIG_COUNT', 'GIT_EXEC_PATH', 'PAGER', 'GIT_PAGER', 'MANPAGER',
  'EDITOR', 'VISUAL', 'BASH_ENV', 'ENV', 'IFS', 'PS4', 'PROMPT_COMMAND', 'SHELL', 'NODE_OPTIONS', 'NODE_PATH', 'PYTHONPATH', 'PYTHONSTARTUP', 'PYTHONHOME',
  'PERL5OPT', 'PERL5LIB', 'PERL5DB', 'RUBYOPT', 'RUBYLIB', 'GOFLAGS', 'CGO_CFLAGS', 'CGO_LDFLAGS', 'CGO_ENABLED', 'RUSTC_WRAPPER', 'RUSTFLAGS', 'CARGO_HOME',
  'CARGO_BUILD_RUSTC_WRAPPER', 'npm_config_script_shell', 'npm_config_node_options', 'LESSOPEN', 'LESSCLOSE', 'LESSKEY', 'LESSKEYIN', 'GIT_SSH', 'GIT_SSH_COMMAND',
  'SSH_ASKPASS', 'CURL_HOME', 'WGETRC', 'HOME', 'XDG_CONFIG_HOME', 'XDG_DATA_DIRS', 'XDG_RUNTIME_DIR',
];

/** Extensions of the same classes (docs/permissions.md, *Assignments*). */
const EXTENDED_SET = [
  'GCONV_PATH', 'GLIBC_TUNABLES', 'MALLOC_CHECK_', 'LOCPATH', 'NLSPATH', 'TZDIR', 'TMPDIR', 'TMP', 'TEMP', 'CDPATH', 'SHELLOPTS', 'BASHOPTS', 'BASH_XTRACEFD', 'ZDOTDIR',
  'INPUTRC', 'PS1', 'HISTFILE', 'GIT_ASKPASS', 'SUDO_ASKPASS', 'SSH_AUTH_SOCK', 'GIT_EDITOR', 'BROWSER', 'LESS', 'LESSHISTFILE', 'MANOPT', 'MAN_DISABLE_SECCOMP', 'VIMINIT',
  'EXINIT', 'TERMINFO', 'NODE_REPL_EXTERNAL_MODULE', 'NODE_V8_COVERAGE', 'NODE_REDIRECT_WARNINGS', 'PERLLIB', 'PERL_MB_OPT', 'GEM_HOME', 'BUNDLE_GEMFILE', 'LUA_INIT',
  'PHPRC', 'R_PROFILE_USER', 'JULIA_DEPOT_PATH', 'ERL_AFLAGS', 'PYTEST_ADDOPTS', 'JAVA_TOOL_OPTIONS', '_JAVA_OPTIONS', 'JDK_JAVA_OPTIONS', 'JAVA_HOME', 'CLASSPATH',
  'MAVEN_OPTS', 'GRADLE_OPTS', 'GRADLE_USER_HOME', 'DOTNET_STARTUP_HOOKS', 'COMPlus_EnableDiagnostics', 'CORECLR_PROFILER_PATH', 'GOROOT', 'GOTOOLCHAIN', 'GOPROXY', 'GOAUTH',
  'RUSTC', 'RUSTUP_TOOLCHAIN', 'CC', 'CXX', 'CFLAGS', 'LDFLAGS', 'GCC_EXEC_PREFIX', 'MAKEFLAGS', 'MAKEFILES', 'PKG_CONFIG_PATH', 'CMAKE_C_COMPILER_LAUNCHER', 'CCACHE_PREFIX',
  'NPM_TOKEN', 'YARN_RC_FILENAME', 'COREPACK_NPM_REGISTRY', 'PIP_INDEX_URL', 'UV_INDEX_URL', 'POETRY_HOME', 'COMPOSER_HOME', 'AWKLIBPATH', 'RIPGREP_CONFIG_PATH', 'TAR_OPTIONS',
  'GZIP', 'XZ_OPT', 'NETRC', 'SIMPLE_BACKUP_SUFFIX', 'POSIXLY_CORRECT', 'HTTP_PROXY', 'HTTPS_PROXY', 'ALL_PROXY', 'NO_PROXY', 'RSYNC_RSH', 'SSL_CERT_FILE', 'OPENSSL_CONF',
  'OPENSSL_MODULES', 'SSLKEYLOGFILE', 'REQUESTS_CA_BUNDLE', 'NODE_EXTRA_CA_CERTS', 'NODE_TLS_REJECT_UNAUTHORIZED', 'HOSTALIASES', 'RES_OPTIONS', 'LOCALDOMAIN', 'DISPLAY',
  'WAYLAND_DISPLAY', 'XAUTHORITY', 'DBUS_SESSION_BUS_ADDRESS', 'DOCKER_HOST', 'DOCKER_CONFIG', 'KUBECONFIG', 'AWS_CONFIG_FILE', 'GOOGLE_APPLICATION_CREDENTIALS',
  'TEMPDIR', 'PS2', 'PS3', 'BASH_LOADABLES_PATH', 'GLOBIGNORE', 'FPATH', 'FCEDIT', 'BASH_FUNC_x', 'MANPATH', 'MANROFFOPT', 'MANROFFSEQ', 'GVIMINIT', 'MYVIMRC', 'VIM',
  'VIMRUNTIME', 'TERMINFO_DIRS', 'TERMCAP', 'NVIM_APPNAME', 'NODE_ICU_DATA', 'NODE_REPL_HISTORY', 'NODE_COMPILE_CACHE', 'ELIXIR_ERL_OPTIONS', 'TCLLIBPATH',
  'PYTEST_PLUGINS', 'R_ENVIRON_USER', 'R_LIBS_USER', 'GUILE_LOAD_PATH', 'DENO_DIR', 'BUN_INSTALL', 'M2_HOME', 'SBT_OPTS', 'ANT_OPTS', 'GOPATH', 'GOBIN', 'GOENV',
  'GOSUMDB', 'GONOSUMDB', 'GONOSUMCHECK', 'GONOPROXY', 'GOPRIVATE', 'GOINSECURE', 'GOVCS', 'GOCACHE', 'GOCACHEPROG', 'GOMODCACHE', 'GOTMPDIR', 'GOWORK', 'GOCOVERDIR',
  'RUSTDOC', 'RUSTDOCFLAGS', 'CPP', 'LD', 'AR', 'AS', 'CXXFLAGS', 'CPPFLAGS', 'LDLIBS', 'COMPILER_PATH', 'LIBRARY_PATH', 'CPATH', 'C_INCLUDE_PATH', 'CPLUS_INCLUDE_PATH',
  'OBJC_INCLUDE_PATH', 'MAKE', 'GNUMAKEFLAGS', 'MFLAGS', 'DISTCC_HOSTS', 'GOTELEMETRYDIR', 'PNPM_HOME', 'PIPX_HOME', 'AWKPATH', 'GREP_OPTIONS', 'ZIPOPT', 'UNZIP',
  'UNZIPOPT', 'TAPE', 'ZIP', 'MORE', 'MAGIC', 'GNUPGHOME', 'GROFF_BIN_PATH', 'GROFF_TMAC_PATH', 'GNUTLS_SYSTEM_PRIORITY_FILE', 'KRB5_CONFIG', 'GTK_PATH', 'GIO_EXTRA_MODULES', 'QT_PLUGIN_PATH', 'BZIP', 'BZIP2', 'XZ_DEFAULTS', 'SYSTEM_WGETRC', 'SQLITE_HISTORY', 'PSQLRC', 'PSQL_HISTORY', 'PGSERVICEFILE', 'MYSQL_HOME', 'MYSQL_HISTFILE',
  'VERSION_CONTROL', 'ZSTD_CLEVEL', 'FTP_PROXY', 'RSYNC_PROXY', 'RSYNC_CONNECT_PROG', 'CURL_CA_BUNDLE', 'DBUS_SYSTEM_BUS_ADDRESS', 'CONTAINER_HOST',
  'AWS_SHARED_CREDENTIALS_FILE', 'CLOUDSDK_CONFIG', 'AZURE_CONFIG_DIR', 'CONTAINERS_CONF',
];

/** Names outside the set: allowed with any literal value. */
const ALLOWED = ['RUST_BACKTRACE', 'RUST_LOG', 'NODE_ENV', 'CI', 'DEBUG', 'FOO', 'A', '_', 'GOOS', 'GOARCH', 'GODEBUG', 'FORCE_COLOR', 'NO_COLOR', 'COLUMNS', 'TZ', 'LANG', 'LC_ALL', 'TERM', 'PWD', 'USER', 'MY_PATHS'];

test('every name of the spec\'s dangerous set is denied, in any case', (t) => {
  for (const name of SPEC_SET) {
    for (const spelling of [name, name.toLowerCase(), name.toUpperCase(), name[0]!.toLowerCase() + name.slice(1)]) {
      const decision = decideAssignment(spelling, 'x');
      t.false(decision.ok, spelling);
      if (!decision.ok) t.is(decision.code, 'ZB_POLICY_SHELL_ASSIGNMENT');
    }
  }
});

test('the documented extensions of the dangerous set are denied', (t) => {
  for (const name of EXTENDED_SET) t.false(decideAssignment(name, 'x').ok, name);
});

test('names outside the set are allowed with a literal value', (t) => {
  for (const name of ALLOWED) t.true(decideAssignment(name, 'C').ok, name);
  t.true(decideAssignment('FOO', 'a b/c:d=e').ok);
  t.true(decideAssignment('FOO', '').ok);
});

test('locale values are C, POSIX or UTF-8 locales; locale, terminal and time-zone values may not name a file', (t) => {
  for (const [name, value] of [['LANG', 'C.UTF-8'], ['LC_ALL', 'en_US.UTF-8'], ['LC_ALL', 'C'], ['LANG', 'POSIX'], ['LC_CTYPE', 'de_DE.utf8'], ['LANGUAGE', 'de:en'], ['TERM', 'xterm-256color'], ['TZ', 'Europe/Paris'], ['TZ', 'UTC0'], ['TZ', 'EST5EDT,M3.2.0,M11.1.0']] as const) {
    t.true(decideAssignment(name, value).ok, `${name}=${value}`);
  }
  for (const [name, value] of [['LANG', '/tmp/x'], ['LANG', '..'], ['lc_messages', 'a/b'], ['LANGUAGE', '../../x'], ['TERM', '../t'], ['TZ', '/etc/localtime'], ['TZ', ':/etc/localtime'], ['TZ', '../../tmp/z'], ['TZ', 'Europe/../../x'], ['LANG', 'ja_JP.SJIS'], ['LC_ALL', 'zh_CN.GBK'], ['LC_CTYPE', 'ja_JP'], ['LANG', 'C.UTF-8 ']] as const) {
    t.false(decideAssignment(name, value).ok, `${name}=${value}`);
  }
});

test('env -u may remove only names outside the set, so the fixed environment stays', (t) => {
  for (const name of ['LANG', 'FOO', 'NODE_ENV']) t.true(decideUnset(name).ok, name);
  for (const name of ['PATH', 'HOME', 'PAGER', 'GIT_PAGER', 'GIT_CONFIG_NOSYSTEM', 'GIT_CONFIG_GLOBAL', 'GIT_CONFIG_COUNT', 'git_config_key_0', 'EDITOR', 'XDG_CONFIG_HOME', 'SSH_ASKPASS']) {
    const decision = decideUnset(name);
    t.false(decision.ok, name);
    if (!decision.ok) t.is(decision.code, 'ZB_POLICY_SHELL_ASSIGNMENT');
  }
});
