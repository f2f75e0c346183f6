// The state directory is kept out of the sandbox by identity, not by its path (review of issue 21, briefed
// without the tests). When the same directory is also mounted at a path inside a scope (a bind mount: a home or
// data directory mounted into a project tree, a container's host mount), every place it shows is masked: a
// confined command neither reads receipt.key (the key that signs consent receipts, which would forge consent for
// any agent's later runs) nor writes into the state directory. Real mounts, as root; the real CLI.
import test from 'ava';
import { execFileSync } from 'node:child_process';
import { existsSync, mkdirSync, readFileSync } from 'node:fs';
import path from 'node:path';
import { makeWorld, runAttack } from './world.js';

const ALLOW = { mode: 'allowlist', allow: ['python3', 'ls', 'cat'] } as const;
const SCRIPT = ['import os', "print('entries:', len(os.listdir('mirror')))", "print(open('mirror/receipt.key', 'rb').read().hex())", "open('mirror/planted', 'w').write('x')"].join('\n');

/** A first run the user approves and asks to remember (the state directory then holds receipt.key); its key. */
async function rememberedKey(world: ReturnType<typeof makeWorld>): Promise<string> {
  const first = await runAttack(world, ALLOW, [{ tool: 'bash', input: { command: 'ls' } }], ['--remember']);
  const key = path.join(world.home, 'receipt.key');
  if (!existsSync(key)) throw new Error(`no receipt key after a remembered run: ${first.stdout}${first.stderr}`);
  return readFileSync(key).toString('hex');
}

test("the state directory mounted inside the workspace is still out of a confined command's reach", async (t) => {
  const world = makeWorld(t);
  const key = await rememberedKey(world);
  const mirror = path.join(world.workspace, 'mirror');
  mkdirSync(mirror);
  execFileSync('mount', ['--bind', world.home, mirror]);
  t.teardown(() => execFileSync('umount', [mirror]));
  const result = await runAttack(world, ALLOW, [
    { tool: 'write', input: { path: 'k.py', content: `${SCRIPT}\n` } },
    { tool: 'bash', input: { command: 'python3 k.py' } },
  ]);
  t.log(result.stdout);
  t.false(result.stdout.includes(key), 'a confined command read the receipt key');
  t.false(existsSync(path.join(world.home, 'planted')), 'a confined command wrote into the state directory');
  t.true(result.stdout.includes('entries: 0'), 'the command ran, and found nothing at mirror/');
});

test('a directory above the state directory mounted inside the workspace shows no state either', async (t) => {
  const world = makeWorld(t);
  const key = await rememberedKey(world);
  // The whole temporary root (it holds the state directory as state/) is mounted at WS/up.
  const up = path.join(world.workspace, 'up');
  mkdirSync(up);
  execFileSync('mount', ['--bind', world.root, up]);
  t.teardown(() => execFileSync('umount', [up]));
  const script = SCRIPT.replaceAll('mirror', `up/${path.basename(world.home)}`);
  const result = await runAttack(world, ALLOW, [
    { tool: 'write', input: { path: 'k.py', content: `${script}\n` } },
    { tool: 'bash', input: { command: 'python3 k.py' } },
  ]);
  t.log(result.stdout);
  t.false(result.stdout.includes(key), 'a confined command read the receipt key');
  t.false(existsSync(path.join(world.home, 'planted')), 'a confined command wrote into the state directory');
  t.true(result.stdout.includes('entries: 0'), 'the command ran, and found nothing at up/state/');
});

test('the read and write tools do not reach the state directory through a bind mount of it either', async (t) => {
  const world = makeWorld(t);
  const key = await rememberedKey(world);
  const mirror = path.join(world.workspace, 'mirror');
  mkdirSync(mirror);
  execFileSync('mount', ['--bind', world.home, mirror]);
  t.teardown(() => execFileSync('umount', [mirror]));
  const result = await runAttack(world, { mode: 'none' }, [
    { tool: 'read', input: { path: 'mirror/receipt.key' } },
    { tool: 'write', input: { path: 'mirror/planted', content: 'x' } },
  ]);
  t.log(result.stdout);
  t.false(result.stdout.includes(key.slice(0, 16)), 'the read tool returned the receipt key');
  t.false(existsSync(path.join(world.home, 'planted')), 'the write tool wrote into the state directory');
});
