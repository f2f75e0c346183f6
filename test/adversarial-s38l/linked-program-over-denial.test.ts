// Review s38l of issue 21, OVER-DENIAL: a program a hook runs that is a link inside the project (a committed
// `tools/check.sh -> ../scripts/check.sh`, common where one script serves two layouts) is opened without following
// links, found to "exist but cannot be read" (control-locations.ts), and refuses every writer of the run: an ordinary
// `docs/b.md` is refused. docs/security.md promises that what is run is read "where it leads (its target, every link on
// the way ... is protected itself)". The safe outcome: the ordinary write passes, and the link's target stays refused.
import test from 'ava';
import { existsSync, readFileSync, symlinkSync } from 'node:fs';
import path from 'node:path';
import { agentWrites, git, project } from '../adversarial-s36i/harness.js';

for (const [name, hook, file, text] of [
  ['a shell script', 'exec sh tools/check.sh', 'check.sh', 'echo checked\n'],
  ['a Python script', 'exec python3 tools/check.py', 'check.py', 'print("checked")\n'],
] as const)
  test(`a hook's program that is a link inside the project does not refuse ordinary writes: ${name}`, async (t) => {
    const ws = project(t, { '.git/hooks/pre-commit': `#!/bin/sh\n${hook}\n`, [`scripts/${file}`]: text, 'docs/a.md': 'a\n', 'tools/README': 'checks\n' });
    symlinkSync(`../scripts/${file}`, path.join(ws, 'tools', file));
    git(ws, 'add', '-A');
    git(ws, 'commit', '-q', '--no-verify', '-m', 'link');
    const out = await agentWrites(t, ws, 'docs/b.md', 'ordinary notes\n');
    t.true(existsSync(path.join(ws, 'docs/b.md')), `an ordinary write was refused:\n${out}`);
    // The link's target is what runs: it stays the user's.
    const target = await agentWrites(t, ws, `scripts/${file}`, 'changed\n');
    t.is(readFileSync(path.join(ws, 'scripts', file), 'utf8'), text, `the linked program's target was rewritten:\n${target}`);
  });
