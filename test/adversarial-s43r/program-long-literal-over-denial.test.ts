// Review s43r of issue 21, OVER-DENIAL: every word of a program a hook runs is looked up as a possible path, and a
// literal longer than a file name may be (NAME_MAX, 255 bytes) failed its lstat with ENAMETOOLONG, which refused every
// writer ("zotbox could not work out ...: ENAMETOOLONG"). Seen with Yarn's real `.pnp.cjs`, which holds its resolver
// as a base64 wasm literal. Such a word names nothing; a deep path whose components all fit may exist, and still refuses.
import test from 'ava';
import { existsSync } from 'node:fs';
import path from 'node:path';
import { agentWrites, project } from '../adversarial-s36i/harness.js';
import { ordinaryWriteAccepted } from './fixtures.js';

const hookProgram = (literal: string) => ({
  '.git/hooks/pre-commit': '#!/bin/sh\nexec node tools/check.js\n',
  'tools/check.js': `const wasm = "${literal}";\nconsole.log(wasm.length);\n`,
  'src/app.js': 'console.log(1);\n',
});

test('an ordinary write is accepted when a program a hook runs holds a literal longer than a file name (base64 wasm)', async (t) => {
  const wasm = `${'AGFzbQEAAAAB'.repeat(40)}/${'fX8Bf2AC/'.repeat(20)}`; // its first component is 480 bytes
  await ordinaryWriteAccepted(t, project(t, hookProgram(wasm)));
});

test('control (as before): a literal of many short components longer than PATH_MAX refuses every writer', async (t) => {
  const ws = project(t, hookProgram(Array.from({ length: 400 }, () => 'abcdefghij').join('/')));
  t.log(await agentWrites(t, ws, 'src/other.js', 'console.log(3);\n'));
  t.false(existsSync(path.join(ws, 'src/other.js')), 'a word zotbox could not look up (a path that may exist) did not refuse the write');
});
