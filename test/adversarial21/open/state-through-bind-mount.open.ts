// The state directory is kept out of the sandbox by its path (class: the state
// directory from a run; identity, not path). When the same directory is also mounted
// at a path inside a scope (a bind mount: a home or data directory mounted into a
// project tree, a container's host mount), the mask does not cover it: a confined
// command reads receipt.key, the key that signs consent receipts (and so can forge
// consent for any agent's later runs), and writes into other agents' data and sessions.
import test from 'ava';
import { execFileSync } from 'node:child_process';
import { existsSync, mkdirSync, readFileSync } from 'node:fs';
import path from 'node:path';
import { replay, world } from './world.js';

test('the state directory mounted inside the workspace is still out of reach', async (t) => {
  const w = world(t);
  const state = path.join(w.root, 'state');
  // A first run the user approves and asks to remember: the state directory holds receipt.key.
  await replay(w, [{ name: 'bash', input: { command: 'ls' } }], undefined, { args: ['--remember'] });
  const key = readFileSync(path.join(state, 'receipt.key')).toString('hex');
  // The same directory is mounted at a path in the workspace.
  const mirror = path.join(w.ws, 'mirror');
  mkdirSync(mirror);
  execFileSync('mount', ['--bind', state, mirror]);
  t.teardown(() => execFileSync('umount', [mirror]));
  const script = ["print(open('mirror/receipt.key', 'rb').read().hex())", "open('mirror/planted', 'w').write('x')"].join('\n');
  const result = await replay(w, [
    { name: 'write', input: { path: 'k.py', content: `${script}\n` } },
    { name: 'bash', input: { command: 'python3 k.py' } },
  ]);
  t.log(result.stdout);
  t.false(result.stdout.includes(key), 'a confined command read the receipt key');
  t.false(existsSync(path.join(state, 'planted')), 'a confined command wrote into the state directory');
});
