// A dotenv line read as direnv's `dotenv` reads it (dotenv-line.ts). Expected values are stated by hand and were
// checked against `direnv dotenv bash` (2.32.1).
import test from 'ava';
import { dotenvLine } from '../../../../src/host/executors/confine/dotenv-line.js';

const known = new Map([
  ['PWD', '.'],
  ['A', 'x'],
  ['EMPTY', ''],
  ['app.dir', 'q'],
]);

for (const [line, name, value] of [
  ['P=src # project sources', 'P', 'src'],
  ['P=src#project', 'P', 'src'],
  ['P=src   ', 'P', 'src'],
  ["P='src' # project sources", 'P', 'src'],
  ['P="src" # it"s', 'P', 'src'],
  ["P='a' b'", 'P', "a' b"],
  ['P = "src:lib" # c', 'P', 'src:lib'],
  ['P:  v', 'P', 'v'],
  ['export   P=v', 'P', 'v'],
  ['  P=v', 'P', 'v'],
  ['P=', 'P', ''],
  ['P=$', 'P', '$'],
  ["P='$A/x'", 'P', '$A/x'],
  ['P=$A/x', 'P', 'x/x'],
  ['P="${A}/y"', 'P', 'x/y'],
  ['P=$PWD/src', 'P', './src'],
  ['P=${app.dir}', 'P', 'q'],
  ['P=${EMPTY:-d}', 'P', ''],
  ['P=${P:-def}:bin', 'P', 'def:bin'],
  ['P=bin:$P', 'P', 'bin:'],
  ['P=${}a${b', 'P', 'ab'],
  // Go's \s is ASCII: a no-break space is a letter of the value.
  ['P=src\u00a0x # c', 'P', 'src\u00a0x'],
  ['P="a\\"b\\tc"', 'P', 'a"btc'],
  ['P="a\\nb"', 'P', 'a\nb'],
  ['P=a\\nb', 'P', 'a\\nb'],
] as const)
  test(`a dotenv line is read as direnv reads it: ${JSON.stringify(line)}`, (t) => {
    t.like(dotenvLine(line, known), { kind: 'assignment', name, value });
  });

for (const line of ['', '   ', '# P=src', '  # comment', '\t']) test(`a blank or comment line sets nothing: ${JSON.stringify(line)}`, (t) => t.deepEqual(dotenvLine(line, known), { kind: 'none' }));

// direnv refuses these (`invalid line`), or its versions read them differently (a quote left open).
for (const line of ['P=a b', 'P', 'export P', '-P=1', 'P=="x" y', 'P="a', "P='a", 'P= "a # c'])
  test(`a line direnv does not read as one value is unresolved: ${JSON.stringify(line)}`, (t) => t.is(dotenvLine(line, known).kind, 'unresolved'));

for (const [line, variable] of [
  ['P=$HOME/x', 'HOME'],
  ['P="${ROOT:-.}/bin"', 'ROOT'],
  ['P=$1', '1'],
  ['P=a$$', '$'],
  ['P=a$-', '-'],
] as const)
  test(`a variable set outside the file is named: ${JSON.stringify(line)}`, (t) => t.deepEqual(dotenvLine(line, known), { kind: 'outside', name: 'P', variable }));
