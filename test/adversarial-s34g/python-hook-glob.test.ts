// Finding (hooks in other languages read as words, with no closed world): a Python hook that runs every script a
// pattern matches (`for f in sorted(glob.glob("tools/checks/*.sh")): subprocess.run(["sh", f])`) is the Python
// spelling of `for f in tools/checks/*.sh; do sh "$f"; done`, which protects tools/checks/ whole in a shell hook. Read as
// words, the pattern is no plain word and names nothing, and nothing is unresolved either: the agent's write tool adds
// tools/checks/aaa.sh and the user's next `git commit` runs it unconfined.
// Safe outcome: the write is refused (the pattern's fixed directory protected), or every writer refused as unresolved.
import test from 'ava';
import { agentRun, ran, userCommits, world } from './harness.js';

const hook = '#!/usr/bin/env python3\nimport glob, subprocess\nfor f in sorted(glob.glob("tools/checks/*.sh")):\n    subprocess.run(["sh", f], check=True)\n';

test('a pattern a Python hook runs covers its directory', async (t) => {
  const w = world(t, { '.git/hooks/pre-commit': hook, 'tools/checks/lint.sh': 'echo lint\n' }, ['.git/hooks/pre-commit']);
  const result = await agentRun(w, [{ name: 'write', input: { path: 'tools/checks/aaa.sh', content: `touch '${w.marker}'\n` } }]);
  userCommits(w);
  t.false(ran(w), `the agent's tools/checks/aaa.sh ran on the user's commit; agent output:\n${result.stdout}${result.stderr}`);
});
