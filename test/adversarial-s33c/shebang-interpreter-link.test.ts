// adv27d finding 5 (medium-low: needs such a link outside the program directory): the
// kernel runs a script's #! interpreter by the absolute path written there, and
// nothing walks that path. A script in a program directory whose interpreter path
// leads through a link into the workspace (a venv or pipx venv made from a Python built
// in the project being worked on) runs the agent's file as its interpreter.
// changeable-program.ts walks only the path to the script. Class: a program's own
// lookup (its interpreter) leads into a write scope.
import { existsSync, mkdirSync, readFileSync, symlinkSync } from 'node:fs';
import path from 'node:path';
import test from 'ava';
import { markerScript, runUnconfined, userExecutable, world } from './unconfined-world.js';

test('a script whose #! interpreter is a link into the workspace does not run the agent file unconfined', async (t) => {
  const w = world(t);
  const bin = path.join(w.root, 'tools', 'bin');
  const interpreterBin = path.join(w.root, 'python-env', 'bin');
  mkdirSync(interpreterBin, { recursive: true });
  // The environment's python is a link to the interpreter built in the project.
  symlinkSync(path.join(w.workspace, 'build', 'python3'), path.join(interpreterBin, 'python3'));
  userExecutable(path.join(bin, 'jq'), `#!${path.join(interpreterBin, 'python3')}\nprint("jq")\n`);
  await runUnconfined(
    t,
    w,
    [{ write: 'build/python3', content: markerScript(w.marker) }, { bash: 'chmod +x build/python3' }, { write: 'package.json', content: '{}\n' }, { bash: 'jq . package.json' }],
    [bin],
  );
  t.false(existsSync(w.marker), existsSync(w.marker) ? readFileSync(w.marker, 'utf8') : '');
});
