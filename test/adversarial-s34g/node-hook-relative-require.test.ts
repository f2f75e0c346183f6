// Finding (words resolved from the wrong directory): a hook written in JavaScript (`#!/usr/bin/env node`) is read as
// words relative to the worktree top, where git runs it; but node resolves `require('../../tools/precommit.js')`
// relative to the HOOK FILE's directory (.git/hooks/), i.e. tools/precommit.js in the worktree. Read from the top, the
// word lands two directories above the repository, outside the scopes, and nothing is protected: the agent's write
// tool replaces tools/precommit.js and the user's next commit runs it unconfined. (`python3 .git/hooks/x.py` importing
// a sibling, or Perl's `use lib "$FindBin::Bin/../../lib"`, are the same class.)
// Safe outcome: the write is refused (a code file's relative require read from that file's directory, and node's resolution).
import test from 'ava';
import { agentRun, ran, userCommits, world } from './harness.js';

const hook = "#!/usr/bin/env node\nrequire('../../tools/precommit.js');\n";

test("a node hook's relative require is read from the hook's directory", async (t) => {
  const w = world(t, { '.git/hooks/pre-commit': hook, 'tools/precommit.js': "console.log('checks');\n" }, ['.git/hooks/pre-commit']);
  const result = await agentRun(w, [{ name: 'write', input: { path: 'tools/precommit.js', content: `require('fs').writeFileSync(${JSON.stringify(w.marker)}, '');\n` } }]);
  userCommits(w);
  t.false(ran(w), `node ran the agent's tools/precommit.js on the user's commit; agent output:\n${result.stdout}${result.stderr}`);
});
