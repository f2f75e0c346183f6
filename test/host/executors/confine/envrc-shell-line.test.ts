// An .envrc line split as the shell splits it (envrc-shell-line.ts): simple commands at ";" and "&&", words as
// written; anything outside that grammar is a reason, never a guess. Expectations stated by hand.
import test from 'ava';
import os from 'node:os';
import { lineCommands, shellWords } from '../../../../src/host/executors/confine/envrc-shell-line.js';

const split = (line: string) => {
  const commands = lineCommands(line);
  return typeof commands === 'string' ? commands : commands.map(({ words, after }) => `${after ?? ''}[${words.join(' ')}]`);
};

for (const [line, expected] of [
  ['export NODE_ENV=development PORT=3000', ['[export NODE_ENV=development PORT=3000]']],
  ['export A=1; export B=2', ['[export A=1]', ';[export B=2]']],
  ['export A=1 && export B=2;', ['[export A=1]', '&&[export B=2]']],
  ['A="x y" B=\'$z\' # a comment', ['[A="x y" B=\'$z\']']],
  ['PATH_add "bin dir";dotenv', ['[PATH_add "bin dir"]', ';[dotenv]']],
  ['export A=${B}c;x', ['[export A=${B}c]', ';[x]']],
  ['a#b', ['[a#b]']],
  ['# only a comment', []],
] as const)
  test(`the commands of ${JSON.stringify(line)}`, (t) => {
    t.deepEqual(split(line), [...expected]);
  });

for (const line of [
  'has nix || use nix',
  'export A=1 &',
  'export A=1 &&',
  'cat x | sh',
  'export A=$(pwd)',
  'export A=`pwd`',
  'export A="a\\"b"',
  'export A=1 > log',
  '{ export A=1; }',
  '( export A=1 )',
  ';export A=1',
  'export A=1;; export B=2',
  'export A="open',
  'export A=${B',
])
  test(`a line outside the grammar is not split: ${line}`, (t) => {
    t.is(typeof lineCommands(line), 'string');
  });

test('an assignment\'s value expands ~ after "=" and after each ":", as bash does; a word only at its start', (t) => {
  const known = new Map([['PATH', '']]);
  const home = os.homedir();
  t.deepEqual(shellWords('~/bin:~/tools:x', known, true), [`${home}/bin:${home}/tools:x`]);
  t.deepEqual(shellWords('x:~/bin', known), ['x:~/bin']);
  t.deepEqual(shellWords('"x:~/bin"', known, true), ['x:~/bin']);
});
