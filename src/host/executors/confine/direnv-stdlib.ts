// direnv's standard library as zotbox reads it (tool-file-references.ts reads an
// .envrc line by line): what each stdlib function runs, loads or puts on PATH,
// modelled from `direnv stdlib` (direnv 2.32). Closed: a function not here, or one
// that runs what zotbox does not read, makes its line unresolved.
import os from 'node:os';
import path from 'node:path';

/**
 * direnv's stdlib directives zotbox reads, and what each names (relative to `directory`, the directory of the file
 * that says it, where direnv runs it): `direnv` is read as direnv code, `dotenv` as a dotenv file, `nix` as nix,
 * `words` as a script's words, `tree` a directory whose programs the user's shell then runs (PATH). A string is why
 * the line is unresolved. The list is closed: every function `direnv stdlib` defines (direnv 2.32) is here, and
 * one that runs a command or code zotbox does not read is unresolved; any other word (a function from the user's
 * direnvrc, a `use` or `layout` the stdlib does not define) is unresolved where it is met.
 */
export type DirectiveReading = 'direnv' | 'dotenv' | 'nix' | 'words';
type DirectiveNames = readonly { readonly name: string; readonly as: DirectiveReading | 'tree' }[];
type Directive = (args: readonly string[], known: ReadonlyMap<string, string>, directory: string) => DirectiveNames | string;

const nothing: Directive = () => [];
const runs =
  (what: string): Directive =>
  () =>
    `${what}, which zotbox does not read`;

export const DIRENV_DIRECTIVES: ReadonlyMap<string, Directive> = new Map<string, Directive>([
  // source_env expands a leading ~ itself (${1/#\~/$HOME}); a directory is its .envrc (read below).
  ['source_env', (args) => args.slice(0, 1).map((name) => ({ name: withHome(name), as: 'direnv' as const }))],
  ['source_env_if_exists', (args) => args.slice(0, 1).map((name) => ({ name: withHome(name), as: 'direnv' as const }))],
  // _source_up: `cd .. && find_up NAME` (NAME defaults to .envrc): the first NAME in the parent or any ancestor up to /.
  ['source_up', (args, _, directory) => ancestorsNamed(directory, args[0] || '.envrc')],
  ['source_up_if_exists', (args, _, directory) => ancestorsNamed(directory, args[0] || '.envrc')],
  // Its path, $PWD/.env by default, a directory's .env (read below).
  ['dotenv', (args) => [{ name: args[0] || '.env', as: 'dotenv' as const }]],
  ['dotenv_if_exists', (args) => [{ name: args[0] || '.env', as: 'dotenv' as const }]],
  ['PATH_add', (args) => args.map((name) => ({ name, as: 'tree' as const }))],
  ['path_add', (args) => args.slice(1).map((name) => ({ name, as: 'tree' as const }))],
  // Its bin/ goes on PATH, its lib/ on LD_LIBRARY_PATH: the whole prefix.
  ['load_prefix', (args) => args.slice(0, 1).map((name) => ({ name, as: 'tree' as const }))],
  ['layout', (args, known) => layoutNames(args, known)],
  ['use', (args, known) => useNames(args, known)],
  // With a command after it, the command runs (strictness applies for its duration): read as a line of its own.
  ['strict_env', (args, known, directory) => commandAfter(args, known, directory)],
  ['unstrict_env', (args, known, directory) => commandAfter(args, known, directory)],
  // Read or record only: watched files' times, the environment, a message, a path printed, PATH entries removed.
  ...['watch_file', 'watch_dir', 'MANPATH_add', 'PATH_rm', 'path_rm', 'env_vars_required', 'log_status', 'log_error'].map((name) => [name, nothing] as const),
  ...['direnv_version', 'has', 'expand_path', 'user_rel_path', 'join_args', 'find_up', 'semver_search', 'direnv_layout_dir', 'fetchurl'].map((name) => [name, nothing] as const),
  // Runs the user's git in the directory, whose configuration is protected as control locations.
  ['on_git_branch', nothing],
  ['unset', nothing],
  ['direnv_load', runs('it runs the command after it and loads the environment that command dumps')],
  ['direnv_apply_dump', runs('it loads an environment (PATH among it) from the dump file it names')],
  ['source_url', runs('it runs a downloaded script, and the files that script loads')],
  ['rvm', runs("it runs rvm, which reads the project's Ruby files")],
]);

/** The stdlib functions decided here (read, nothing to protect, or unresolved): the test compares them with `direnv stdlib`. */
export const DIRENV_FUNCTIONS: readonly string[] = [...DIRENV_DIRECTIVES.keys()];

/** `~` and `~/x` as the shell reads them, in the user's home directory; `~user/x` is left as it is (no such file here). */
function withHome(name: string): string {
  return name === '~' || name.startsWith('~/') ? os.homedir() + name.slice(1) : name;
}

/** NAME in the parent of `directory` and in every directory above it, to /: what direnv's find_up may find. */
function ancestorsNamed(directory: string, name: string): DirectiveNames {
  const found: { name: string; as: 'direnv' }[] = [];
  for (let at = path.dirname(directory); ; at = path.dirname(at)) {
    found.push({ name: path.join(at, name), as: 'direnv' });
    if (at === path.dirname(at)) return found;
  }
}

/** The command after strict_env or unstrict_env: a directive of its own, or unresolved. */
function commandAfter(args: readonly string[], known: ReadonlyMap<string, string>, directory: string): DirectiveNames | string {
  if (args.length === 0) return [];
  const directive = DIRENV_DIRECTIVES.get(args[0]!);
  if (directive === undefined) return `it runs ${JSON.stringify(args[0])}, a command zotbox does not read`;
  return directive(args.slice(1), known, directory);
}

/**
 * What each of direnv's stdlib layouts puts on PATH or runs (as `direnv stdlib` prints them, direnv 2.32), relative
 * to the .envrc's directory; `$(direnv_layout_dir)` is `$direnv_layout_dir` when the file sets it, else .direnv.
 * A layout not modelled here is a string: why it is unresolved (closed world).
 */
function layoutNames(args: readonly string[], known: ReadonlyMap<string, string>): { name: string; as: DirectiveReading | 'tree' }[] | string {
  const [what, ...rest] = args;
  const layoutDirectory = known.get('direnv_layout_dir') ?? '.direnv';
  const tree = (name: string) => ({ name, as: 'tree' as const });
  switch (what) {
    case 'node':
      return [tree('node_modules/.bin')]; // PATH_add node_modules/.bin
    case 'php':
      return [tree('vendor/bin')]; // PATH_add vendor/bin
    case 'go': // PATH_add $(direnv_layout_dir)/go/bin
    case 'perl': // PATH_add $(direnv_layout_dir)/perl5/bin
    case 'ruby': // PATH_add $GEM_HOME/bin and $BUNDLE_BIN, both in $(direnv_layout_dir)
    case 'pyenv': // layout_python with pyenv's interpreter: $VIRTUAL_ENV or $(direnv_layout_dir)/python-X.Y
    case 'python':
    case 'python2':
    case 'python3': {
      // layout_python: the interpreter ($1 of `layout python`, a file when it names one) runs on every load; its
      // virtual environment is $VIRTUAL_ENV when the file sets it, else $(direnv_layout_dir)/python-X.Y (or /virtualenv),
      // and its bin/ goes first on PATH.
      const named: { name: string; as: DirectiveReading | 'tree' }[] = [tree(layoutDirectory)];
      const venv = known.get('VIRTUAL_ENV');
      if (venv !== undefined && /^(python[23]?|pyenv)$/u.test(what)) named.push(tree(path.join(venv, 'bin')));
      if (what === 'python' && rest[0] !== undefined) named.push({ name: rest[0], as: 'words' });
      return named;
    }
    case 'pipenv':
      // $(pipenv --venv): .venv in the project when it exists or PIPENV_VENV_IN_PROJECT is set (else outside the workspace);
      // `pipenv install --dev` runs on the Pipfile when there is none.
      return [tree('.venv'), { name: known.get('PIPENV_PIPFILE') ?? 'Pipfile', as: 'words' }, { name: 'Pipfile.lock', as: 'words' }];
    case 'anaconda': {
      // A "./prefix" environment is activated (its activate.d scripts run); the directory of a conda named by path goes on PATH.
      const [prefix, conda] = rest;
      const named: { name: string; as: DirectiveReading | 'tree' }[] = [{ name: 'environment.yml', as: 'words' }];
      if (prefix?.startsWith('./') === true || prefix?.startsWith('../') === true) named.push(tree(prefix));
      if (conda?.includes('/') === true) named.push(tree(path.dirname(conda)));
      return named;
    }
    case 'julia':
      return []; // export JULIA_PROJECT=$PWD: nothing runs
    default:
      return `direnv's layout ${what ?? '(none)'} is not one zotbox models (node, php, go, perl, ruby, python, python2, python3, pyenv, pipenv, anaconda, julia)`;
  }
}

/**
 * `use NAME` as direnv's stdlib defines each use_NAME: what nix evaluates (`use nix [FILE]`, `use flake [DIR]`; its
 * shellHook runs), the file direnv.vim sources, the version files and version directories of node, nodenv, julia
 * and rbenv. Any other (guix, which loads the manifests its options name; a use_NAME from the user's direnvrc) is unresolved.
 */
function useNames(args: readonly string[], known: ReadonlyMap<string, string>): DirectiveNames | string {
  const [what, ...rest] = args;
  const files = rest.filter((arg) => !arg.startsWith('-'));
  switch (what) {
    case 'nix': {
      const named = files.filter((arg) => arg.endsWith('.nix'));
      return (named.length > 0 ? named : ['shell.nix', 'default.nix']).map((name) => ({ name, as: 'nix' }));
    }
    case 'flake': {
      const ref = files[0] ?? '.';
      const directory = ref.startsWith('path:') ? ref.slice('path:'.length) : ref;
      if (!directory.startsWith('.') && !directory.startsWith('/')) return []; // a registry or URL flake: not in the workspace
      return ['flake.nix', 'flake.lock'].map((name) => ({ name: path.join(directory.split('#')[0]!, name), as: 'nix' }));
    }
    case 'vim':
      // The direnv.vim extension sources the file (.vimrc.local by default) in every vim opened below.
      return [{ name: files[0] ?? '.vimrc.local', as: 'words' }];
    case 'node':
    case 'nodenv':
    case 'julia': {
      // load_prefix of $NODE_VERSIONS/node-vX (or $JULIA_VERSIONS/julia-X), the version read from .nvmrc or
      // .node-version when none is given; nodenv's versions are under `nodenv root`, and it adds layout node.
      const versions = known.get(what === 'julia' ? 'JULIA_VERSIONS' : 'NODE_VERSIONS');
      const named: { name: string; as: DirectiveReading | 'tree' }[] = versions === undefined ? [] : [{ name: versions, as: 'tree' }];
      if (what === 'node') named.push({ name: '.nvmrc', as: 'words' }, { name: '.node-version', as: 'words' });
      if (what === 'nodenv') named.push({ name: 'node_modules/.bin', as: 'tree' });
      return named;
    }
    case 'rbenv':
      // rbenv's shims run the Ruby that .ruby-version names.
      return [{ name: '.ruby-version', as: 'words' }];
    default:
      return `direnv's stdlib has no use ${what ?? '(none)'} zotbox models (nix, flake, vim, node, nodenv, julia, rbenv): it runs a function zotbox does not read`;
  }
}
