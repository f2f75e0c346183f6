// The fixed environment commands run in: the search path the gate looks
// programs up in and the executors run them with, and the directories from
// which a program may be written as an absolute path (gate-rules §2, §5).
// Fixed, so that what the gate checked is what runs, whatever the user's PATH.
// Git is told never to run a program that configuration names (issue 9 §3).

export const COMMAND_SEARCH_PATH: readonly string[] = ['/usr/local/sbin', '/usr/local/bin', '/usr/sbin', '/usr/bin', '/sbin', '/bin'];

export const TRUSTED_PROGRAM_DIRECTORIES: readonly string[] = COMMAND_SEARCH_PATH;

/** npm's global config file for commands: a path below a character device, which no one can create. */
export const NO_GLOBAL_NPMRC = '/dev/null/zotbox-no-global-npmrc';

/** Driver names that some config visible to the command defines, to be switched off. */
export interface GitDriverNames {
  readonly filters: readonly string[];
  readonly diffs: readonly string[];
  readonly merges: readonly string[];
  /** Some config sets diff.external. */
  readonly externalDiff: boolean;
}

export const NO_GIT_DRIVERS: GitDriverNames = { filters: [], diffs: [], merges: [], externalDiff: false };

/**
 * Config given to git through GIT_CONFIG_COUNT, which outranks every config file:
 * no hooks, no fsmonitor, no credential helpers, no signing programs, no
 * transports, and each configured filter, textconv, diff and merge driver off.
 * "false" stands where git has no "off" value: git then reports the failure.
 */
export function gitConfigOverrides(drivers: GitDriverNames): [string, string][] {
  const overrides: [string, string][] = [
    ['core.hooksPath', '/dev/null'],
    ['core.fsmonitor', 'false'],
    ['core.askPass', ''],
    ['core.sshCommand', 'false'],
    ['core.gitProxy', ''],
    ['core.alternateRefsCommand', ''],
    ['credential.helper', ''],
    ['gpg.program', 'false'],
    ['gpg.ssh.program', 'false'],
    ['gpg.x509.program', 'false'],
    ['commit.gpgSign', 'false'],
    ['tag.gpgSign', 'false'],
    ['push.gpgSign', 'false'],
    ['log.showSignature', 'false'],
    ['merge.verifySignatures', 'false'],
    ['protocol.allow', 'never'],
    ['submodule.recurse', 'false'],
    ['fetch.recurseSubmodules', 'false'],
    ['core.editor', ':'],
    ['sequence.editor', ':'],
    ['core.pager', 'cat'],
  ];
  if (drivers.externalDiff) overrides.push(['diff.external', 'false']);
  for (const name of drivers.filters) overrides.push([`filter.${name}.clean`, ''], [`filter.${name}.smudge`, ''], [`filter.${name}.process`, ''], [`filter.${name}.required`, 'false']);
  for (const name of drivers.diffs) overrides.push([`diff.${name}.textconv`, 'cat'], [`diff.${name}.command`, 'false']);
  for (const name of drivers.merges) overrides.push([`merge.${name}.driver`, 'false']);
  return overrides;
}

/**
 * The complete environment of every command an agent runs (gate-rules §5): a
 * fixed PATH, a private and empty HOME (and XDG directories) of this command
 * alone, no pagers or editors, no git or terminal prompts, no system or global
 * git configuration, git's configured programs off, no Python bytecode written, and nothing from the user's
 * environment (no tokens, no keys) but the variables the manifest names in
 * permissions.env.read that the user had set (`passed`).
 */
export function commandEnvironment(
  home: string,
  assignments: Readonly<Record<string, string>> = {},
  drivers: GitDriverNames = NO_GIT_DRIVERS,
  passed: Readonly<Record<string, string>> = {},
  /** The user's program directories first, then the fixed path (program-directories.ts searchPathWith). */
  searchPath: readonly string[] = COMMAND_SEARCH_PATH,
  /** With net.allow (issue 24): the sandbox's proxy, for every client and git's http(s). */
  proxy?: string,
): Record<string, string> {
  const overrides = [...gitConfigOverrides(drivers), ...(proxy === undefined ? [] : [['http.proxy', proxy] as [string, string]])];
  const gitConfig: Record<string, string> = { GIT_CONFIG_COUNT: String(overrides.length) };
  for (const [index, [key, value]] of overrides.entries()) {
    gitConfig[`GIT_CONFIG_KEY_${index}`] = key;
    gitConfig[`GIT_CONFIG_VALUE_${index}`] = value;
  }
  return {
    // The user's variables the agent may read (permissions.env.read, issue 24 §2): first, so nothing fixed is overridden.
    ...passed,
    LANG: 'C.UTF-8',
    TERM: 'dumb',
    NO_COLOR: '1',
    // The command's own leading assignments (the gate allows only names outside the dangerous set); what follows always wins.
    ...assignments,
    PATH: searchPath.join(':'),
    HOME: home,
    XDG_CONFIG_HOME: `${home}/.config`,
    XDG_CACHE_HOME: `${home}/.cache`,
    XDG_DATA_HOME: `${home}/.local/share`,
    XDG_STATE_HOME: `${home}/.local/state`,
    PAGER: 'cat',
    GIT_PAGER: 'cat',
    EDITOR: ':',
    VISUAL: ':',
    GIT_EDITOR: ':',
    GIT_SEQUENCE_EDITOR: ':',
    GIT_ASKPASS: '',
    SSH_ASKPASS: '',
    GIT_CONFIG_NOSYSTEM: '1',
    GIT_CONFIG_GLOBAL: '/dev/null',
    GIT_TERMINAL_PROMPT: '0',
    GIT_OPTIONAL_LOCKS: '0',
    // No transport at all (the sandbox has no network; local ones run upload-pack commands config can name).
    GIT_ALLOW_PROTOCOL: proxy === undefined ? 'zotbox-none' : 'http:https',
    GIT_AUTHOR_NAME: 'zotbox agent',
    GIT_AUTHOR_EMAIL: 'agent@zotbox.invalid',
    GIT_COMMITTER_NAME: 'zotbox agent',
    GIT_COMMITTER_EMAIL: 'agent@zotbox.invalid',
    // Python writes no bytecode cache: an honest run leaves no __pycache__, which is protected (policy/protected-files.ts).
    PYTHONDONTWRITEBYTECODE: '1',
    // npm reads a project .npmrc the agent can write, but the environment outranks it: caches, logs and the
    // programs npm runs stay fixed (the dangerous set keeps the agent's own npm_config_* assignments out).
    npm_config_cache: `${home}/.npm`,
    npm_config_logs_dir: `${home}/.npm/_logs`,
    // No user or global npmrc. Two different names: npm 10.9 and 11 refuse one file loaded as both ("double-loading
    // config"). Nothing can ever exist below /dev/null, so the global one reads as absent, confined or not.
    npm_config_userconfig: '/dev/null',
    npm_config_globalconfig: NO_GLOBAL_NPMRC,
    npm_config_script_shell: '/bin/sh',
    npm_config_git: 'git',
    npm_config_update_notifier: 'false',
    ...gitConfig,
    ...(proxy === undefined ? {} : proxyVariables(proxy)),
  };
}

/**
 * With net.allow, every spelling of the proxy variables curl, wget, git, npm,
 * pip and Node's clients read, all naming the sandbox's proxy. NO_PROXY is
 * empty: nothing, loopback included, is reached but through the proxy.
 */
function proxyVariables(proxy: string): Record<string, string> {
  const variables: Record<string, string> = { NO_PROXY: '', no_proxy: '', npm_config_proxy: proxy, npm_config_https_proxy: proxy, npm_config_noproxy: '' };
  for (const name of ['HTTP_PROXY', 'HTTPS_PROXY', 'ALL_PROXY']) variables[name] = variables[name.toLowerCase()] = proxy;
  return variables;
}
