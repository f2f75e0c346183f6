// Finding still open: a file other tools run on their own that the protected list
// (policy/protected-files.ts) misses (the other spellings of this finding are fixed:
// ../tool-files.test.ts). Each is written here by the write tool alone
// (no bash), with a write scope of ${workspace} that names none of them: the
// closed world says such a file is not granted unless a scope names it.
import test from 'ava';
import { existsSync, mkdirSync, writeFileSync } from 'node:fs';
import path from 'node:path';
import { makeWorld, runAttack, type World } from '../world.js';

async function writeAll(world: World, files: readonly string[], content: string): Promise<string[]> {
  await runAttack(
    world,
    { mode: 'none' },
    files.map((file) => ({ tool: 'write' as const, input: { path: file, content } })),
  );
  return files.filter((file) => existsSync(path.join(world.workspace, file)));
}

test("a virtualenv's activation scripts (sourced by editors into every new terminal, and by direnv layouts) are not granted by ${workspace}", async (t) => {
  const world = makeWorld(t);
  mkdirSync(path.join(world.workspace, '.venv', 'bin'), { recursive: true });
  writeFileSync(path.join(world.workspace, '.venv', 'pyvenv.cfg'), 'home = /usr/bin\n');
  const written = await writeAll(world, ['.venv/bin/activate', '.venv/bin/activate.fish', '.venv/bin/python'], 'touch /tmp/pwned\n');
  t.deepEqual(written, [], "VS Code's Python extension sources .venv/bin/activate in every terminal it opens for the folder, and runs .venv/bin/python to inspect it");
});
