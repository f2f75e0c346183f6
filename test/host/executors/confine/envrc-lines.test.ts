// An .envrc's lines read as the shell runs them (envrc-lines.ts): every assignment of an assignment list, `export`
// and `declare -x`, each ";"/"&&" command; ordinary lines refuse nothing, what zotbox does not read is unresolved.
// Expected sets are stated by hand.
import test from 'ava';
import { mkdirSync, realpathSync, writeFileSync } from 'node:fs';
import path from 'node:path';
import { toolFileReferences } from '../../../../src/host/executors/confine/tool-file-references.js';
import { tempDir } from '../../../fixtures/temp.js';

function read(t: Parameters<typeof tempDir>[0], envrc: string) {
  const ws = path.join(realpathSync(tempDir(t, 'zb-envrc-lines-')), 'ws');
  mkdirSync(ws);
  writeFileSync(path.join(ws, '.envrc'), envrc);
  const found = toolFileReferences([path.join(ws, '.envrc')], [ws]);
  return {
    trees: found.locations
      .filter((l) => l.tree)
      .map((l) => `${path.relative(ws, l.path)}/`)
      .sort(),
    unresolved: found.unresolved.length,
  };
}

for (const [envrc, trees] of [
  ['export NODE_ENV=development PORT=3000\n', []],
  ['export NODE_ENV=development; export PORT=3000\n', []],
  ['A=1 B=2\n', []],
  ['declare -x A=1 B=2\n', []],
  ['export A=1 && export B=2\n', []],
  ['export PATH\n', []],
  ['export A=1 PATH=bin:$PATH; PATH_add tools\n', ['bin/', 'tools/']],
  ['PATH_add tools; export PERL5LIB=lib\n', ['lib/', 'tools/']],
  // export expands every value before it sets any (bash's declaration builtins); an assignment list, one after another.
  ['X=old\nexport X=new PATH=$X:$PATH\n', ['old/']],
  ['X=old\nX=new PATH=$X:$PATH\n', ['new/']],
  ['export PATH=$PATH:~/bin/../sub\n', []],
] as const)
  test(`an ordinary line is read: ${JSON.stringify(envrc)}`, (t) => {
    t.deepEqual(read(t, envrc), { trees: [...trees], unresolved: 0 });
  });

for (const envrc of [
  'if has nix; then use nix; fi\n',
  'has nix && use nix\n',
  'PATH_add bin && export X=1\n',
  'export A=1 || export B=2\n',
  'A=1 use nix\n',
  'export -n A\n',
  'declare -i A=1+1\n',
  'declare -n A=B\n',
  'export A=1 &&\n',
  'export $X=1\n',
  'export A=$(pwd)\n',
  'export A=1; curl -s https://example.com | sh\n',
  'export A=1; source scripts/env.sh\n',
])
  test(`a line zotbox does not read is unresolved: ${JSON.stringify(envrc)}`, (t) => {
    t.true(read(t, envrc).unresolved > 0);
  });

// A .env an .envrc loads, read as direnv's dotenv reads it (dotenv-line.ts): the comment after a value is no part of it.
function readDotenv(t: Parameters<typeof tempDir>[0], dotenv: string) {
  const ws = path.join(realpathSync(tempDir(t, 'zb-dotenv-lines-')), 'ws');
  mkdirSync(ws);
  writeFileSync(path.join(ws, '.envrc'), 'dotenv\n');
  writeFileSync(path.join(ws, '.env'), dotenv);
  const found = toolFileReferences([path.join(ws, '.envrc')], [ws]);
  return {
    trees: found.locations
      .filter((l) => l.tree)
      .map((l) => `${path.relative(ws, l.path)}/`)
      .sort(),
    unresolved: found.unresolved.length,
  };
}

for (const [dotenv, trees] of [
  ['PYTHONPATH=src # project sources\n', ['src/']],
  ['PYTHONPATH=src#project\n', ['src/']],
  ["PYTHONPATH='src' # project sources\n", ['src/']],
  ['PYTHONPATH = "src:lib"\r\nNODE_ENV=development # local\r\n', ['lib/', 'src/']],
  ['ROOT=tools\nPATH=$ROOT/bin:${PATH}\n', ['tools/', 'tools/bin/']],
  ['PATH=${PATH:-/usr/bin}:bin\n', ['bin/']],
  ['PYTHONPATH=$PWD/src\n', ['src/']],
  ['app.dir=lib\nPYTHONPATH=${app.dir}\n', ['lib/']],
  ['OUTPUT_DIR=$HOME/out\nNODE_ENV=development\n', []],
] as const)
  test(`a .env line is read as direnv reads it: ${JSON.stringify(dotenv)}`, (t) => {
    t.deepEqual(readDotenv(t, dotenv), { trees: [...trees], unresolved: 0 });
  });

for (const dotenv of ['PYTHONPATH=src lib\n', 'PYTHONPATH="src\nlib"\n', 'PYTHONPATH=$TOOLS/lib\n', 'BASH_ENV=$HOME/env.sh\n', "PYTHONPATH='$ROOT'\n"])
  test(`a .env line zotbox does not read is unresolved: ${JSON.stringify(dotenv)}`, (t) => {
    t.true(readDotenv(t, dotenv).unresolved > 0);
  });

test('a preload in an .envrc NODE_OPTIONS that zotbox cannot carry as a name refuses every writer; one it can, refuses none', (t) => {
  // `a/../b` is no package name node looks up as written; `@acme/setup` installed nowhere loads nothing of the project.
  t.is(read(t, 'export NODE_OPTIONS="-r a/../b"\n').unresolved, 1);
  t.is(read(t, 'export NODE_OPTIONS="--import a//b"\n').unresolved, 1);
  t.is(read(t, 'export NODE_OPTIONS="-r @acme/setup"\n').unresolved, 0);
});
