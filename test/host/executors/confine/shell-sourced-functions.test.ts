// Where a script sources files, a command may be a function it does not spell out, unless every `.` and `source`
// names a file whose functions were read (shell-sourced-functions.ts). A shell's operand (`bash x.sh`) is read both as
// a new shell's script and as sharing this shell where the command may be a function (`bash() { . "$@"; }`): the
// expected readings are written out by hand. `readSourced` stands for the files: a map from path to what it defines.
import test from 'ava';
import { type CommandWord, scriptWords } from '../../../../src/host/executors/confine/shell-command-words.js';
import { NO_FUNCTIONS, type SourcedFunctions, sourcedFunctionsOf } from '../../../../src/host/executors/confine/shell-sourced-functions.js';

const context = { scriptDirectory: '/ws/.husky', scriptFile: '/ws/.husky/h', workingDirectory: '/ws', environment: { HOME: '/home/u' }, shell: 'sh' };
const BASH_FUNCTION: SourcedFunctions = { names: new Set(['bash']), any: false };

/** How x.sh is read: `new` (the runner's own script), `shared` (may share this shell), or both. */
function readingsOfX(text: string, files: Readonly<Record<string, SourcedFunctions | undefined>>): string[] {
  const read = (file: string) => (file in files ? files[file] : NO_FUNCTIONS);
  const words = scriptWords(text, { ...context, readSourced: read }).filter((word): word is Extract<CommandWord, { kind: 'path' }> => word.kind === 'path' && word.text === 'x.sh');
  return words.map((word) => (word.runner === 'bash' ? 'new' : 'shared')).sort();
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
});

test('sourcedFunctionsOf: known only where every `.` was met and named a file, and every file read defines no unknown', (t) => {
  const none = () => NO_FUNCTIONS;
  t.is(sourcedFunctionsOf('bash x.sh\n', { files: [], met: 0, opaque: false }, none), undefined, 'nothing sourced: nothing to tell');
  t.deepEqual(sourcedFunctionsOf('. ./a.sh\n', { files: ['/ws/a.sh'], met: 1, opaque: false }, none), { names: new Set(), any: false });
  t.is(sourcedFunctionsOf('. ./a.sh\n', { files: [], met: 1, opaque: true }, none), undefined);
  t.is(sourcedFunctionsOf('. ./a.sh\n. ./b.sh\n', { files: ['/ws/a.sh'], met: 1, opaque: false }, none), undefined, 'one `.` not met');
  t.is(
    sourcedFunctionsOf('. ./a.sh\n', { files: ['/ws/a.sh'], met: 1, opaque: false }, () => undefined),
    undefined,
    'a file that cannot be read',
  );
  t.deepEqual(
    sourcedFunctionsOf('. ./a.sh\n', { files: ['/ws/a.sh'], met: 1, opaque: false }, () => BASH_FUNCTION),
    { names: new Set(['bash']), any: false },
  );
});
