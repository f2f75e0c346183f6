// Issue 22 review, item 5: "agent: must lie inside the suite's folder or be pinned
// by digest". The pin is compared only after the agent was loaded, so a pull
// request's suite that names any host path with a made-up digest makes zotbox walk
// and parse that path under -y, and the error it stops with quotes what it found
// there into the CI log: the name of a link inside a host folder
// (ZB_ARCHIVE_SOURCE_UNSUPPORTED), the first bytes of a host file in hex
// (ZB_ARCHIVE_FORMAT_UNKNOWN), a character of a host manifest.json, or the host
// folder's content digest (an oracle for guessed content). `agent: /` walks the
// whole host. Stated by hand: with a pin that does not match, nothing of the host
// path reaches the error: not a file name below it, not its bytes.
import test from 'ava';
import { mkdirSync, symlinkSync, writeFileSync } from 'node:fs';
import path from 'node:path';
import { ZotboxError } from '../../src/errors.js';
import { evalIn, evalWorld, writeSuite } from '../fixtures/eval-world.js';
import { tempDir } from '../fixtures/temp.js';

const WRONG_PIN = `sha256:${'0'.repeat(64)}`;

test('a wrong pin on a host folder does not make zotbox name what is inside it', async (t) => {
  const world = evalWorld(t);
  const host = path.join(tempDir(t, 'zb-host-'), 'private');
  mkdirSync(host);
  writeFileSync(path.join(host, 'manifest.json'), JSON.stringify({ zotfile: 1, name: 'x', version: '1.0.0' }));
  symlinkSync('/etc/hostname', path.join(host, 'ghp_LEAKEDNAME0123456789'));
  const suite = writeSuite(world, 'pinned', { agent: host, digest: WRONG_PIN, cases: [{ id: 'a', prompt: 'go' }] });
  const error = await t.throwsAsync(evalIn(world, [suite]), { instanceOf: ZotboxError });
  t.false(error.message.includes('LEAKEDNAME'), error.message);
});

test('a wrong pin on a host file does not make zotbox print its bytes', async (t) => {
  const world = evalWorld(t);
  const host = path.join(tempDir(t, 'zb-host-'), 'credentials');
  writeFileSync(host, 'SECRET=hunter2\n');
  const suite = writeSuite(world, 'pinned', { agent: host, digest: WRONG_PIN, cases: [{ id: 'a', prompt: 'go' }] });
  const error = await t.throwsAsync(evalIn(world, [suite]), { instanceOf: ZotboxError });
  const secretHex = Buffer.from('SECR').toString('hex');
  t.false(error.message.includes(secretHex), error.message);
  t.false(error.message.includes('SECR'), error.message);
});
