// Each reader that gives a name refuses one with a `..` after a folder on its own (lexical-climb.ts): the kernel walks
// through the folder first, and the folder may become a link. Expected outcomes written by hand.
import test from 'ava';
import { programCodeNames } from '../../../../src/host/executors/confine/program-code-names.js';
import { shellSourcedNames } from '../../../../src/host/executors/confine/shell-startup-sources.js';
import { startupSources } from '../../../../src/host/executors/confine/startup-file-sources.js';

const where = (index: number, what: string) => `line ${index + 1}${what}`;

test("a shell startup file's source with a .. after a folder names nothing and is unresolved; a plain one is a name", (t) => {
  const unresolved: string[] = [];
  t.deepEqual(shellSourcedNames('source tools/cache/../env.sh\n', '/home/u', where, unresolved), []);
  t.is(unresolved.length, 1);
  t.true(unresolved[0]!.includes('"tools/cache/../env.sh"'), unresolved[0]);
  t.deepEqual(
    shellSourcedNames('. tools/env.sh\n', '/home/u', where, []).map((name) => name.name),
    ['tools/env.sh'],
  );
});

test("a .gdbinit's source with a .. after a folder names nothing and is unresolved", (t) => {
  const unresolved: string[] = [];
  t.deepEqual(startupSources('source tools/cache/../env.gdb\n', 'gdb', { file: '/ws/.gdbinit', home: '/home/u' }, where, unresolved), []);
  t.is(unresolved.length, 1);
  t.true(unresolved[0]!.includes('tools/cache/../env.gdb'), unresolved[0]);
});

test('program code that opens a file through a .. after a folder names nothing and is unresolved', (t) => {
  const unresolved: string[] = [];
  t.deepEqual(programCodeNames('/ws/hook.py', 'exec(open("tools/cache/../lint.py").read())\n', where, unresolved), []);
  t.is(unresolved.length, 1);
  t.true(unresolved[0]!.includes('"tools/cache/../lint.py"'), unresolved[0]);
});
