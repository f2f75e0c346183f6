// Review s82e, over-denial (safe, noted): an ordinary plugin loader in the user's hook program, `require(name)` over a
// list of LITERALS (`for (const p of ["./plugins/a.js", "./plugins/b.js"]) require(p)`), is a load "computed from its
// start" (a variable) under s80c's rule, so EVERY write of the run is refused, an unrelated `notes.txt` included,
// though each file it can load is a literal zotbox reads (and protects). Asserted: the unrelated write is allowed.
import { existsSync } from 'node:fs';
import path from 'node:path';
import test from 'ava';
import { agentWrites, project } from '../adversarial-s36i/harness.js';

test('hook runs node tools/check.js, require(p) over a list of literals: an unrelated write is allowed', async (t) => {
  const ws = project(t, {
    'src.txt': '1\n',
    'tools/check.js': 'for (const p of ["./plugins/a.js", "./plugins/b.js"]) require(p);\n',
    'tools/plugins/a.js': '\n',
    'tools/plugins/b.js': '\n',
    '.git/hooks/pre-commit': '#!/bin/sh\nexec node tools/check.js\n',
  });
  t.log('run:', (await agentWrites(t, ws, 'notes.txt', 'x\n')).slice(-1500));
  t.true(existsSync(path.join(ws, 'notes.txt')), 'the unrelated write was refused');
});
