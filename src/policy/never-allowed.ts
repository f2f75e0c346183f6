// Programs and shell builtins the bash gate never runs, whatever the allowlist
// says (gate-rules §3): they change privileges, run strings as code, or only
// change a shell's own state. Argument rules for the others: argument-rules/.

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
