// Where a script sources files, a command may be a function it does not spell out, unless every `.` and `source`
// names a file whose functions were read (shell-sourced-functions.ts). A shell's operand (`bash x.sh`) is read both as
// a new shell's script and as sharing this shell where the command may be a function (`bash() { . "$@"; }`): the
// expected readings are written out by hand. `readSourced` stands for the files: a map from path to what it defines.
import test from 'ava';
import { type CommandWord, scriptWords } from '../../../../src/host/executors/confine/shell-command-words.js';
import { type SourcedFunctions, type SourcedOperands, sourcedFunctionsOf } from '../../../../src/host/executors/confine/shell-sourced-functions.js';

const context = { scriptDirectory: '/ws/.husky', scriptFile: '/ws/.husky/h', workingDirectory: '/ws', environment: { HOME: '/home/u' }, shell: 'sh' };
const BASH_FUNCTION: SourcedFunctions = { names: new Set(['bash']), any: false };
const NO_FUNCTIONS: SourcedFunctions = { names: new Set(), any: false };

/** How x.sh is read (from any directory a cd moved to): `new` (the runner's own script), `shared` (may share this shell), or both. */
function readingsOfX(text: string, files: Readonly<Record<string, SourcedFunctions | undefined>>): string[] {
  const read = (file: string) => (file in files ? files[file] : 'absent');
  const words = scriptWords(text, { ...context, readSourced: read }).filter((word): word is Extract<CommandWord, { kind: 'path' }> => word.kind === 'path' && word.text === 'x.sh');
  return [...new Set(words.map((word) => (word.runner === 'bash' ? 'new' : 'shared')))].sort();
}

test('every file sourced is named and defines no bash: `bash x.sh` is a new shell only', (t) => {
  t.deepEqual(readingsOfX('. ./lib.sh\nbash x.sh\n', {}), ['new']);
  t.deepEqual(readingsOfX('[ -f "$HOME/.config/x.sh" ] && . "$HOME/.config/x.sh"\nbash x.sh\n', {}), ['new']);
  t.deepEqual(readingsOfX('source /etc/profile.d/a.sh\nbash x.sh\n', {}), ['new']);
  // The home directory and the directory the script runs in, spelled out.
  t.deepEqual(readingsOfX('. ~/init.sh\nbash x.sh\n', {}), ['new']);
  t.deepEqual(readingsOfX('. ~/init.sh\nbash x.sh\n', { '/home/u/init.sh': BASH_FUNCTION }), ['new', 'shared']);
  t.deepEqual(readingsOfX('. "$PWD/lib.sh"\nbash x.sh\n', { '/ws/lib.sh': BASH_FUNCTION }), ['new', 'shared']);
  // A variable spelled out to one file.
  t.deepEqual(readingsOfX('i="${XDG_CONFIG_HOME:-$HOME/.config}/husky/init.sh"\n[ -f "$i" ] && . "$i"\nbash x.sh\n', {}), ['new']);
});

test('a sourced file that defines bash, or that cannot be read, or may define any: x.sh is read both ways', (t) => {
  t.deepEqual(readingsOfX('. ./lib.sh\nbash x.sh\n', { '/ws/lib.sh': BASH_FUNCTION }), ['new', 'shared']);
  t.deepEqual(readingsOfX('. ./lib.sh\nbash x.sh\n', { '/ws/lib.sh': undefined }), ['new', 'shared']);
  t.deepEqual(readingsOfX('. ./lib.sh\nbash x.sh\n', { '/ws/lib.sh': { names: new Set(), any: true } }), ['new', 'shared']);
  // One of two files.
  t.deepEqual(readingsOfX('. ./a.sh\n. ./b.sh\nbash x.sh\n', { '/ws/b.sh': BASH_FUNCTION }), ['new', 'shared']);
});

test('a `.` that names no single file zotbox can tell: x.sh is read both ways, whatever the files define', (t) => {
  // A bare name: `.` looks it up on PATH first.
  t.deepEqual(readingsOfX('. lib.sh\nbash x.sh\n', {}), ['new', 'shared']);
  // A function's argument, a loop's variable, a pattern, a command's output.
  t.deepEqual(readingsOfX('load() { . "$1"; }\nload ./lib.sh\nbash x.sh\n', {}), ['new', 'shared']);
  t.deepEqual(readingsOfX('for f in ./a.sh ./b.sh; do . "$f"; done\nbash x.sh\n', {}), ['new', 'shared']);
  t.deepEqual(readingsOfX('. ./lib/*.sh\nbash x.sh\n', {}), ['new', 'shared']);
  t.deepEqual(readingsOfX('. "$(./where.sh)"\nbash x.sh\n', {}), ['new', 'shared']);
  // After a cd, a relative name is relative to a directory zotbox reads loosely.
  t.deepEqual(readingsOfX('cd tools\n. ./lib.sh\nbash x.sh\n', {}), ['new', 'shared']);
  // `.` spelled so the shell reads it as one (quotes, a backslash, `builtin`, `command`).
  for (const spelling of ['"." lib.sh', '\\. lib.sh', 'builtin source lib.sh', 'command . lib.sh']) t.deepEqual(readingsOfX(`${spelling}\nbash x.sh\n`, {}), ['new', 'shared'], spelling);
});

test('a `.` the reading does not meet as a command still counts: x.sh is read both ways', (t) => {
  // The words of a comment are no command, but the loose count takes them: reading both ways is the safe side.
  t.deepEqual(readingsOfX('# then . ./other.sh\n. ./lib.sh\nbash x.sh\n', {}), ['new', 'shared']);
});

test('text the shell reads (eval, trap), an alias, or functions handed in: x.sh is read both ways whatever the files define', (t) => {
  t.deepEqual(readingsOfX('. ./lib.sh\neval "$CMD"\nbash x.sh\n', {}), ['new', 'shared']);
  t.deepEqual(readingsOfX('. ./lib.sh\ntrap "echo" EXIT\nbash x.sh\n', {}), ['new', 'shared']);
  t.deepEqual(readingsOfX('. ./lib.sh\nalias bash=.\nbash x.sh\n', {}), ['new', 'shared']);
  // A command word the script computes may be `alias`; POSIX mode expands aliases in a script.
  t.deepEqual(readingsOfX('. ./lib.sh\n"$CMD" y\nbash x.sh\n', { '/ws/lib.sh': NO_FUNCTIONS }), ['new', 'shared']);
  t.deepEqual(readingsOfX('. ./lib.sh\nset -o posix\nbash x.sh\n', { '/ws/lib.sh': NO_FUNCTIONS }), ['new', 'shared']);
});

test('a `.`, an eval or a function the loose count misses but the reading meets counts (review s01x): x.sh is read both ways', (t) => {
  // Glued to a redirection (the redirection's target is one word: the `.` sources ./lib.sh, which is read), after a
  // case pattern's `)`.
  t.deepEqual(readingsOfX('.>/dev/null ./lib.sh\nbash x.sh\n', { '/ws/lib.sh': BASH_FUNCTION }), ['new', 'shared']);
  t.deepEqual(readingsOfX('.>/dev/null ./lib.sh\nbash x.sh\n', {}), ['new']);
  t.deepEqual(readingsOfX('case $- in *). ./lib.sh;; esac\nbash x.sh\n', { '/ws/lib.sh': BASH_FUNCTION }), ['new', 'shared']);
  t.deepEqual(readingsOfX('eval>/dev/null "$F"\nbash x.sh\n', {}), ['new', 'shared']);
  t.deepEqual(readingsOfX('case $- in *)bash() { . "$@"; };; esac\nbash x.sh\n', {}), ['new', 'shared']);
  // A function defined right after a case pattern's `)` is the script's own: a command so named is read as it.
  t.deepEqual(readingsOfX('case $- in *)bash() { :; };; esac\nbash x.sh\n', {}), ['new', 'shared']);
  // mapfile's callback and the other commands that read text or load builtins.
  for (const line of ['mapfile -C "$F" -c 1 _ <<< x', 'readarray -C f _ < /dev/null', 'fc -s', 'enable -f ./b.so bash', 'command_not_found_handle() { :; }'])
    t.deepEqual(readingsOfX(`. ./lib.sh\n${line}\nbash x.sh\n`, { '/ws/lib.sh': NO_FUNCTIONS }), ['new', 'shared'], line);
});

test('a relative `.` and a cd anywhere, even after it in the text (a function run later): read both ways; a cd to the top is none', (t) => {
  t.deepEqual(readingsOfX('load() { . ./fns.sh; }\ncd scripts\nload\nbash x.sh\n', {}), ['new', 'shared']);
  t.deepEqual(readingsOfX('. ./fns.sh\npushd scripts\nbash x.sh\n', {}), ['new', 'shared']);
  t.deepEqual(readingsOfX('. ./fns.sh\npopd\nbash x.sh\n', {}), ['new', 'shared']);
  // A file it sources that changes directory moves the sourcer too.
  t.deepEqual(readingsOfX('. ./enter.sh\n. ./fns.sh\nbash x.sh\n', { '/ws/enter.sh': { names: new Set(), any: false, changesDirectory: true } }), ['new', 'shared']);
  // Where the script runs: the top it names, or `./` (`cd .` counts loosely as a `.` command: read both ways).
  t.deepEqual(readingsOfX('cd "$(git rev-parse --show-toplevel)"\n. ./fns.sh\nbash x.sh\n', {}), ['new']);
  t.deepEqual(readingsOfX('cd ./\n. ./fns.sh\nbash x.sh\n', {}), ['new']);
  // A cd that CDPATH may send elsewhere is a move, even where one of its places is where the script runs.
  t.deepEqual(readingsOfX('CDPATH=/\ncd ws\n. ./fns.sh\nbash x.sh\n', {}), ['new', 'shared']);
  // An absolute `.` is the same file wherever the shell is.
  t.deepEqual(readingsOfX('cd scripts\n. /etc/hook-fns.sh\nbash x.sh\n', {}), ['new']);
});

test('a file not there defines nothing only where no command that may write files ran before its `.` (review s01x)', (t) => {
  t.deepEqual(readingsOfX('[ -f ./.cache/fns.sh ] && . ./.cache/fns.sh\nbash x.sh\n', {}), ['new']);
  t.deepEqual(readingsOfX('n=$(basename "$0")\necho "$n"\n. ./.cache/fns.sh\nbash x.sh\n', {}), ['new']);
  for (const before of ['cp fns.template .cache/fns.sh', 'echo "bash() { :; }" > .cache/fns.sh', 'x=$(cp a b)', 'git show HEAD:fns.sh | tee .cache/fns.sh', '. ./other.sh'])
    t.deepEqual(readingsOfX(`${before}\n. ./.cache/fns.sh\nbash x.sh\n`, {}), ['new', 'shared'], before);
  // A `.`'s own command substitution runs before it; so does a PATH set in any spelling, or hash, before a bare name.
  t.deepEqual(readingsOfX('. ./.cache/fns.sh "$(touch stamp)"\nbash x.sh\n', {}), ['new', 'shared']);
  for (const before of ['PATH="$PWD/tools:$PATH"\ncat x', 'printf -v PATH %s "$PWD/tools:$PATH"\ncat x', 'hash -p ./tools/gen cat\ncat x'])
    t.deepEqual(readingsOfX(`${before}\n. ./.cache/fns.sh\nbash x.sh\n`, {}), ['new', 'shared'], before);
  // A path the kernel gives each process its own names no file zotbox can read (review s05b).
  t.deepEqual(readingsOfX('. /dev/fd/200 200< scripts/fns.data\nbash x.sh\n', {}), ['new', 'shared']);
  t.deepEqual(readingsOfX('. /proc/self/cwd/fns.sh\nbash x.sh\n', {}), ['new', 'shared']);
  // A path a command that writes nothing names (echo's operand) is no write of it.
  t.deepEqual(
    scriptWords('echo ./lib.sh\n[ -f ./lib.sh ] && . ./lib.sh\n', { ...context, readSourced: () => NO_FUNCTIONS }).filter((word) => word.kind === 'unresolved'),
    [],
  );
  // A redirection to /dev/null writes nothing.
  t.deepEqual(readingsOfX('[ -n "$CI" ] 2>/dev/null\n. ./.cache/fns.sh\nbash x.sh\n', {}), ['new']);
  // Out of order (a loop, a function's body): a write anywhere may come first.
  t.deepEqual(readingsOfX('load() { . ./.cache/fns.sh; }\ncp fns.template .cache/fns.sh\nload\nbash x.sh\n', {}), ['new', 'shared']);
  t.deepEqual(readingsOfX('for i in 1 2; do . ./.cache/fns.sh; cp t .cache/fns.sh; done\nbash x.sh\n', {}), ['new', 'shared']);
});

test('sourcedFunctionsOf: known only where every `.` was met and named a file, and every file read defines no unknown', (t) => {
  const none = () => NO_FUNCTIONS;
  const met = (files: readonly string[], more: Partial<SourcedOperands> = {}): SourcedOperands => ({
    files: files.map((file) => ({ file, relative: false, afterWrites: false })),
    met: files.length,
    opaque: false,
    readsText: false,
    changesDirectory: false,
    places: new Set(),
    written: false,
    writes: false,
    named: new Set(),
    ...more,
  });
  const ANY = { names: new Set(), any: true, changesDirectory: true };
  // A file zotbox cannot tell may define anything; it is not taken to move the shell (git-sh-setup's opaque `.`).
  const UNKNOWN = ANY;
  t.is(sourcedFunctionsOf('bash x.sh\n', met([]), none, false), undefined, 'nothing sourced: nothing to tell');
  t.deepEqual(sourcedFunctionsOf('. ./a.sh\n', met(['/ws/a.sh']), none, false), { names: new Set(), any: false, changesDirectory: false });
  t.deepEqual(sourcedFunctionsOf('. ./a.sh\n', met(['/ws/a.sh'], { opaque: true }), none, false), UNKNOWN);
  // The loose count takes `find . -name` too: any function, but no move.
  t.deepEqual(sourcedFunctionsOf('. ./a.sh\n. ./b.sh\n', met(['/ws/a.sh']), none, false), { ...ANY, loose: true }, 'one `.` not met');
  t.deepEqual(
    sourcedFunctionsOf('. ./a.sh\n', met(['/ws/a.sh']), () => undefined, false),
    UNKNOWN,
    'a file that cannot be read',
  );
  t.deepEqual(
    sourcedFunctionsOf('. ./a.sh\n', met(['/ws/a.sh']), () => BASH_FUNCTION, false),
    { names: new Set(['bash']), any: false, changesDirectory: false },
  );
  // A file not there: nothing, unless a command that may write files ran before (in order, or anywhere out of order).
  t.deepEqual(
    sourcedFunctionsOf('. ./a.sh\n', met(['/ws/a.sh']), () => 'absent', false),
    { names: new Set(), any: false, changesDirectory: false },
  );
  t.deepEqual(
    sourcedFunctionsOf('cp t a.sh\n. ./a.sh\n', { ...met([]), files: [{ file: '/ws/a.sh', relative: true, afterWrites: true }], met: 1, writes: true }, () => 'absent', false),
    UNKNOWN,
  );
  t.deepEqual(
    sourcedFunctionsOf('. ./a.sh\n', met(['/ws/a.sh'], { writes: true }), () => 'absent', true),
    UNKNOWN,
    'out of order, after a later write',
  );
  // A relative file and a cd anywhere, in the script or in a file it sources: any function; the place is the files'.
  const relative = { ...met([]), files: [{ file: '/ws/a.sh', relative: true, relativeText: 'a.sh', afterWrites: false }], met: 1 };
  t.deepEqual(sourcedFunctionsOf('. ./a.sh\n', { ...relative, changesDirectory: true }, none, false), ANY);
  t.deepEqual(
    sourcedFunctionsOf('. ./a.sh\n', relative, () => ({ ...NO_FUNCTIONS, changesDirectory: true }), false),
    ANY,
  );
  // What a file does to the place is kept, and so are its functions that may move the shell.
  const moving = { ...NO_FUNCTIONS, moves: true, movingFunctions: new Set(['up']) };
  t.deepEqual(
    sourcedFunctionsOf('. ./a.sh\n', met(['/ws/a.sh']), () => moving, false),
    { names: new Set(), any: false, changesDirectory: false, moves: true, movingFunctions: new Set(['up']) },
  );
  // A file zotbox cannot tell (or not there after a write, or an opaque `.`) beside one that moves: the move is kept.
  const cdThenUnknown = (second: SourcedFunctions | 'absent' | undefined, more: Partial<SourcedOperands> = {}) =>
    sourcedFunctionsOf('. ./cd.sh\n. ./b.sh\n', met(['/ws/cd.sh', '/ws/b.sh'], more), (file) => (file === '/ws/cd.sh' ? moving : second), false);
  t.deepEqual(cdThenUnknown(undefined), { ...ANY, moves: true, movingFunctions: new Set(['up']) }, 'unreadable');
  t.deepEqual(
    cdThenUnknown('absent', {
      writes: true,
      files: [
        { file: '/ws/cd.sh', relative: false, afterWrites: false },
        { file: '/ws/b.sh', relative: false, afterWrites: true },
      ],
    }),
    { ...ANY, moves: true, movingFunctions: new Set(['up']) },
    'written first',
  );
  t.deepEqual(cdThenUnknown(NO_FUNCTIONS, { opaque: true }), { ...ANY, moves: true, movingFunctions: new Set(['up']) }, 'an opaque one beside');
  // After a cd, a relative `.` is read from where the script runs and from each place a cd names.
  const asked: string[] = [];
  const reads = (file: string) => {
    asked.push(file);
    return file === '/ws/web/a.sh' ? moving : NO_FUNCTIONS;
  };
  t.deepEqual(sourcedFunctionsOf('cd web\n. ./a.sh\n', { ...relative, changesDirectory: true, places: new Set(['/ws/web']) }, reads, false), { ...ANY, moves: true, movingFunctions: new Set(['up']) });
  // Read twice: the moving function found in the first pass may be called by any of them.
  t.deepEqual(asked, ['/ws/a.sh', '/ws/web/a.sh', '/ws/a.sh', '/ws/web/a.sh']);
});
