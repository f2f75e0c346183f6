// Hand-written decisions for the file readers and writers (table-files*.ts):
// for every program, everyday uses allowed (every allowed option used once)
// and attacks denied: paths outside the scopes, /proc, .git writes, links that
// would widen permissions, abbreviations, options left out on purpose.
import test from 'ava';
import { symlinkSync, mkdirSync } from 'node:fs';
import path from 'node:path';
import { gateWorld } from '../../fixtures/gate-world.js';
import { FILE_CASES } from './files-cases.js';
import { checkCases, decideCase, type GateCase } from './gate-cases.js';

const OUTSIDE = 'ZB_POLICY_PATH_OUTSIDE_SCOPE';

test('file readers and writers decide as written by hand', (t) => {
  checkCases(t, FILE_CASES);
});

test('links already in a destination cannot widen what cp and ln write', (t) => {
  const world = gateWorld(t);
  const { W, S, R } = world;
  // out/notes.md: a link to the secret where cp would put notes.md; out2/dir/inner.txt: a link into R inside a copy target tree.
  mkdirSync(path.join(W, 'out'));
  symlinkSync(path.join(S, 'secret.txt'), path.join(W, 'out', 'notes.md'));
  mkdirSync(path.join(W, 'out2', 'dir'), { recursive: true });
  symlinkSync(path.join(R, 'r.txt'), path.join(W, 'out2', 'dir', 'inner.txt'));
  // deep/a/b/up: a link to W itself; a relative target is taken from W, where ln puts the new link.
  mkdirSync(path.join(W, 'deep', 'a', 'b'), { recursive: true });
  symlinkSync(W, path.join(W, 'deep', 'a', 'b', 'up'));
  const cases: readonly GateCase[] = [
    { command: 'cp notes.md out', expect: OUTSIDE, why: 'cp would write the secret through out/notes.md' },
    { command: 'cp a.txt out', expect: 'allow' },
    { command: 'cp -r dir out2', expect: OUTSIDE, why: 'cp -r would write R/r.txt through out2/dir/inner.txt' },
    { command: 'cp dir/inner.txt out2/dir', expect: OUTSIDE },
    { command: 'cp -r src out2', expect: 'allow' },
    { command: 'ln -s ../S/secret.txt deep/a/b/up', expect: OUTSIDE, why: 'ln puts the link in W, where ../S is the secret' },
    { command: 'ln -s ../../a.txt deep/a/b/up', expect: OUTSIDE, why: 'from W, ../../a.txt is outside the scopes' },
    { command: 'ln -s a.txt deep/a/b/up', expect: 'allow' },
    { command: 'cp -s ../S/secret.txt deep/a/b/up', expect: OUTSIDE },
  ];
  const mismatches = cases.flatMap((c) => {
    const got = decideCase(world, c);
    const actual = got.allow ? 'allow' : got.code;
    return actual === c.expect ? [] : [`${c.command}: expected ${c.expect}, got ${actual}${got.allow ? '' : ` (${got.reason})`}`];
  });
  t.deepEqual(mismatches, []);
});
