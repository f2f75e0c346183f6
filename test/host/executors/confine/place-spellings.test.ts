// `$PWD`, `$(pwd)` and `$(git rev-parse --show-toplevel)` name a place only where PWD, pwd and git are the shell's
// own: where the script (or a file it sources, or text it reads as commands) may set PWD or make pwd or git a function,
// a word or a cd spelled with them names a place zotbox cannot tell. Expected readings written out by hand.
import test from 'ava';
import { scriptWords } from '../../../../src/host/executors/confine/shell-command-words.js';
import type { SourcedFunctions } from '../../../../src/host/executors/confine/shell-sourced-functions.js';

const context = { scriptDirectory: '/ws/.husky', scriptFile: '/ws/.husky/h', workingDirectory: '/ws', environment: { HOME: '/home/u' }, shell: 'bash' };
const NONE: SourcedFunctions = { names: new Set(), any: false };

/** The unresolved words of `text`, each as its text; `files` stands for what the files it sources define. */
function unresolved(text: string, files: Readonly<Record<string, SourcedFunctions>> = {}): string[] {
  const read = (file: string) => files[file] ?? 'absent';
  return scriptWords(text, { ...context, readSourced: read })
    .filter((word) => word.kind === 'unresolved')
    .map((word) => word.text);
}

test('the shell own PWD and pwd: a cd to them is no move, a word under them is where the script runs', (t) => {
  t.deepEqual(unresolved('cd "$PWD"\nbash "$PWD/x.sh"\n'), []);
  t.deepEqual(unresolved('cd "$(pwd)"\nbash "$(pwd)/x.sh"\n'), []);
  t.deepEqual(unresolved('cd "$(git rev-parse --show-toplevel)"\nbash x.sh\n'), []);
});

test('PWD set, or pwd or git defined, by the script: unknown, as a cd and as a word', (t) => {
  t.true(unresolved('PWD=scripts\ncd "$PWD"\n').includes('$PWD'));
  t.true(unresolved('read PWD < .dir\nbash "$PWD/x.sh"\n').some((each) => each.includes('x.sh')));
  t.true(unresolved('pwd() { echo scripts; }\ncd "$(pwd)"\n').includes('$(pwd)'));
  t.true(unresolved('pwd() { echo scripts; }\nbash "$(pwd)/x.sh"\n').some((each) => each.includes('x.sh')));
  t.true(unresolved('git() { echo scripts; }\ncd "$(git rev-parse --show-toplevel)"\n').includes('$(git rev-parse --show-toplevel)'));
});

test('a definition in text the script reads as commands, a builtin turned off, or a sourced file that may define any', (t) => {
  t.true(unresolved('eval \'pwd() { echo scripts; }\'\ncd "$(pwd)"\n').includes('$(pwd)'));
  t.true(unresolved('enable -n pwd\ncd "$(pwd)"\n').includes('$(pwd)'));
  t.true(unresolved('. ./lib.sh\ncd "$(pwd)"\n', { '/ws/lib.sh': { names: new Set(), any: true } }).includes('$(pwd)'));
  t.true(unresolved('. ./lib.sh\ncd "$(git rev-parse --show-toplevel)"\n', { '/ws/lib.sh': { names: new Set(['git']), any: false } }).includes('$(git rev-parse --show-toplevel)'));
  // eval or trap text that never spells the name, and a sourced file known to define neither: known.
  t.deepEqual(unresolved('trap \'rm -f "$t"\' EXIT\n. ./lib.sh\ncd "$(pwd)"\n', { '/ws/lib.sh': NONE }), []);
});

test("a sourced file that moves the shell, or a call of its moving function, makes the script's later words unknown, eval or trap text or not", (t) => {
  const moves: SourcedFunctions = { ...NONE, moves: true };
  const up: SourcedFunctions = { ...NONE, names: new Set(['up']), movingFunctions: new Set(['up']) };
  t.deepEqual(unresolved('. ./cd.sh\nbash x.sh\n', { '/ws/cd.sh': moves }), ['. ./cd.sh']);
  t.deepEqual(unresolved('trap \'rm -f "$t"\' EXIT\n. ./cd.sh\nbash x.sh\n', { '/ws/cd.sh': moves }), ['. ./cd.sh']);
  t.deepEqual(unresolved('. ./up.sh\nup\nbash x.sh\n', { '/ws/up.sh': up }), ['. ./up.sh']);
  // Defined, never called: no move.
  t.deepEqual(unresolved('. ./up.sh\nbash x.sh\n', { '/ws/up.sh': up }), []);
});
