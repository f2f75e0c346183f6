// Finding (here-docs): a here-document is read as a program only when its own command is a shell or an interpreter;
// `cat <<'EOF' | sh` (the body piped into a shell, a common idiom) is taken as data for cat, so what the body sources
// (`. scripts/lib.sh`) is not protected: the agent's write tool replaces scripts/lib.sh (no .sh chain leads there) and the
// user's next commit runs it.
// Safe outcome: the write is refused (a body piped into a shell is that shell's script).
import test from 'ava';
import { agentRun, ran, userCommits, world } from './harness.js';

const hook = "#!/bin/sh\ncat <<'END' | sh\n. ./scripts/lib.sh\ncheck_all\nEND\n";

test('a here-document piped into sh is read as its script', async (t) => {
  const w = world(t, { '.git/hooks/pre-commit': hook, 'scripts/lib.sh': 'check_all() { echo ok; }\n' }, ['.git/hooks/pre-commit']);
  const result = await agentRun(w, [{ name: 'write', input: { path: 'scripts/lib.sh', content: `check_all() { touch '${w.marker}'; }\n` } }]);
  userCommits(w);
  t.false(ran(w), `the agent's scripts/lib.sh ran on the user's commit; agent output:\n${result.stdout}${result.stderr}`);
});
