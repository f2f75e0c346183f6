// Whether the agent could change what a looked-up program path runs (adv27c): every
// path on the way counts, not only the canonical file; a link dangling into a write
// scope counts; a file with other names on a scope's device counts. Outcomes by hand.
import test, { type ExecutionContext } from 'ava';
import { linkSync, mkdirSync, realpathSync, symlinkSync, writeFileSync } from 'node:fs';
import path from 'node:path';
import { changeableProgram } from '../../src/policy/changeable-program.js';
import type { ScopeRoot } from '../../src/policy/scopes.js';
import { tempDir } from '../fixtures/temp.js';

function world(t: ExecutionContext) {
  const root = realpathSync(tempDir(t, 'zb-changeable-'));
  const ws = path.join(root, 'ws');
  const bin = path.join(root, 'bin');
  const outside = path.join(root, 'outside');
  for (const directory of [ws, bin, outside]) mkdirSync(directory);
  writeFileSync(path.join(outside, 'tool'), 'outside\n');
  const scopes: ScopeRoot[] = [{ declared: '${workspace}', root: ws }];
  return { root, ws, bin, outside, scopes };
}

test('a plain file outside the write scopes is not changeable', (t) => {
  const { outside, scopes } = world(t);
  t.is(changeableProgram(path.join(outside, 'tool'), scopes), undefined);
});

test('a link whose final file is outside, but whose way passes a link in the workspace, is changeable', (t) => {
  const { ws, bin, outside, scopes } = world(t);
  symlinkSync(outside, path.join(ws, 'sub')); // ws/sub -> outside: the agent may repoint it
  symlinkSync(path.join(ws, 'sub', 'tool'), path.join(bin, 'tool'));
  t.is(realpathSync(path.join(bin, 'tool')), path.join(outside, 'tool')); // the canonical file is outside
  const why = changeableProgram(path.join(bin, 'tool'), scopes);
  t.is(why?.scope?.root, ws);
  t.is(why?.why, `is a link leading to ${path.join(ws, 'sub', 'tool')}, inside the write scope \${workspace} of this run`);
});

test('a link that dangles into the workspace is changeable: the agent makes its target', (t) => {
  const { ws, bin, scopes } = world(t);
  symlinkSync(path.join(ws, 'later', 'tool'), path.join(bin, 'tool'));
  t.is(changeableProgram(path.join(bin, 'tool'), scopes)?.scope?.root, ws);
});

test('a link that dangles outside the write scopes is not changeable', (t) => {
  const { root, bin, scopes } = world(t);
  symlinkSync(path.join(root, 'nowhere', 'tool'), path.join(bin, 'tool'));
  t.is(changeableProgram(path.join(bin, 'tool'), scopes), undefined);
});

test('a relative link climbing out of and back into the workspace is changeable', (t) => {
  const { ws, bin, scopes } = world(t);
  writeFileSync(path.join(ws, 'tool'), 'agent\n');
  symlinkSync('../ws/tool', path.join(bin, 'tool'));
  t.is(changeableProgram(path.join(bin, 'tool'), scopes)?.scope?.root, ws);
});

test('a file hard-linked with a file in the workspace is changeable; with one name it is not', (t) => {
  const { ws, bin, scopes } = world(t);
  writeFileSync(path.join(bin, 'tool'), 'shared\n');
  writeFileSync(path.join(bin, 'single'), 'single\n');
  linkSync(path.join(bin, 'tool'), path.join(ws, 'tool'));
  const why = changeableProgram(path.join(bin, 'tool'), scopes);
  t.is(why?.scope?.root, ws);
  t.regex(why?.why ?? '', /has 2 names \(hard links\)/);
  t.is(changeableProgram(path.join(bin, 'single'), scopes), undefined);
});

test('a chain of more than 40 links is changeable (not known to be outside), with no scope named', (t) => {
  const { bin, scopes } = world(t);
  symlinkSync(path.join(bin, 'b'), path.join(bin, 'a'));
  symlinkSync(path.join(bin, 'a'), path.join(bin, 'b'));
  const why = changeableProgram(path.join(bin, 'a'), scopes);
  t.is(why?.scope, undefined);
  t.is(why?.why, 'is a chain of more than 40 links');
});

test('with no write scopes nothing is changeable', (t) => {
  const { ws, bin } = world(t);
  symlinkSync(path.join(ws, 'tool'), path.join(bin, 'tool'));
  t.is(changeableProgram(path.join(bin, 'tool'), []), undefined);
});
