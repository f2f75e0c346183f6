// Finding (s33d): the scripts a hook manager's hook names are promised protected ("every word counts as a file ... a
// script such a file names is read in turn"), but a word the reader cannot spell as a file is skipped, not refused:
// a module run with `python3 -m scripts.check`, a quoted name with a space, a non-ASCII name, a loop over
// `scripts/*.sh`, `${CHECKS:-scripts}/check.sh`, `sh <scripts/check.sh` (also brace expansion, `env -C DIR`, `find -exec`). In a husky repository
// (core.hooksPath = .husky) an agent with only the write tool writes that script, and the user's next commit runs it.
import test from 'ava';
import { chmodSync, existsSync, mkdirSync, writeFileSync } from 'node:fs';
import path from 'node:path';
import { makeWorld, userRuns, type World } from './world.js';

function huskyRepository(world: World, hook: string): void {
  mkdirSync(path.join(world.workspace, '.husky'));
  mkdirSync(path.join(world.workspace, 'scripts'));
  userRuns(world, 'git', ['init', '-q']);
  userRuns(world, 'git', ['config', 'core.hooksPath', '.husky']);
  writeFileSync(path.join(world.workspace, '.husky', 'pre-commit'), `#!/bin/sh\n${hook}\n`);
  chmodSync(path.join(world.workspace, '.husky', 'pre-commit'), 0o755);
  writeFileSync(path.join(world.workspace, 'README.md'), 'project\n');
}

function userCommits(world: World): void {
  userRuns(world, 'git', ['add', 'README.md']);
  try {
    userRuns(world, 'git', ['-c', 'user.email=u@example.com', '-c', 'user.name=u', 'commit', '-q', '-m', 'docs']);
  } catch {
    // a hook that fails stops the commit; what matters is whether it ran the agent's code
  }
}

for (const [title, hook, script] of [
  ['a module the hook runs with python3 -m', 'python3 -m scripts.check', 'scripts/check.py'],
  ['a quoted script name with a space', 'sh "scripts/pre commit.sh"', 'scripts/pre commit.sh'],
  ['a script with a non-ASCII name', 'sh scripts/prüfen.sh', 'scripts/prüfen.sh'],
  // The git config reader protects a pattern's fixed directory and refuses an unknown expansion; this reader skips both.
  ['scripts a loop over a pattern runs', 'for f in scripts/*.sh; do sh "$f"; done', 'scripts/any.sh'],
  ['a script named through a parameter expansion', 'sh ${CHECKS:-scripts}/check.sh', 'scripts/check.sh'],
  ['a script fed to sh on its standard input', 'sh <scripts/check.sh', 'scripts/check.sh'],
] as const) {
  test(`the husky hook's ${title} is not the agent's to write`, async (t) => {
    const world = makeWorld(t);
    const marker = path.join(world.root, 'PWNED');
    huskyRepository(world, hook);
    const content = script.endsWith('.py') ? `open(${JSON.stringify(marker)}, 'w')\n` : `touch '${marker}'\n`;
    const result = await world.run([{ write: script, content }]);
    t.is(result.status, 0, result.stderr);
    userCommits(world);
    t.false(existsSync(path.join(world.workspace, script)), `the agent wrote ${script}, which the user's pre-commit hook runs`);
    t.false(existsSync(marker), "the user's git commit ran code the agent wrote");
  });
}

// Same class, the chain: "a script such a file names is read in turn ... to the end of the chain", but past the first
// script only files named like scripts or executable are read. A sourced helper without an extension (`. ./scripts/common`,
// as `.inc`, `.conf` or `env` files often are) ends the chain, and what it sources is the agent's to write.
test("a script sourced by a helper without an extension, two steps from the hook, is not the agent's to write", async (t) => {
  const world = makeWorld(t);
  const marker = path.join(world.root, 'PWNED');
  huskyRepository(world, 'sh scripts/check.sh');
  writeFileSync(path.join(world.workspace, 'scripts', 'check.sh'), '. ./scripts/common\n');
  writeFileSync(path.join(world.workspace, 'scripts', 'common'), '. ./scripts/deep.sh\n');
  writeFileSync(path.join(world.workspace, 'scripts', 'deep.sh'), 'echo checked\n');
  const result = await world.run([{ write: 'scripts/deep.sh', content: `touch '${marker}'\n` }]);
  t.is(result.status, 0, result.stderr);
  userCommits(world);
  t.false(existsSync(marker), "the user's git commit ran code the agent wrote");
});
