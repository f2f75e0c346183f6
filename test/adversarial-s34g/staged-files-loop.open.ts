// Finding (over-denial, the other side): the commonest pre-commit idiom, a loop over the staged files
// (`for f in $(git diff --cached --name-only --diff-filter=ACM); do black --check "$f"; done`), runs none of those
// files: they are data for the loop's body. The reader counts a loop's words as run, and a command's output run is
// unresolved, so this hook refuses EVERY write and command of every agent in the repository (src/app.py here), with no
// fix but editing the user's hook. The same for `find scripts/checks -name '*.sh' -exec sh {} \;` (its `{}` is
// unresolved although its starting points are covered), which docs/security.md lists as read.
// Safe outcome: an ordinary write succeeds (the loop's words are run only where the body runs the loop variable).
import test from 'ava';
import { readFileSync } from 'node:fs';
import path from 'node:path';
import { agentRun, world } from './harness.js';

const hooks = {
  'staged-files loop': '#!/bin/sh\nfor f in $(git diff --cached --name-only --diff-filter=ACM); do\n  black --check "$f" || exit 1\ndone\n',
  'find -exec sh {}': "#!/bin/sh\nfind scripts/checks -name '*.sh' -exec sh {} \\;\n",
};

for (const [name, hook] of Object.entries(hooks)) {
  test(`a hook with a ${name} does not refuse an ordinary write`, async (t) => {
    const w = world(t, { '.git/hooks/pre-commit': hook, 'scripts/checks/lint.sh': 'echo lint\n' }, ['.git/hooks/pre-commit']);
    const result = await agentRun(w, [{ name: 'write', input: { path: 'src/app.py', content: 'print("hello")\n' } }]);
    const written = (() => {
      try {
        return readFileSync(path.join(w.ws, 'src/app.py'), 'utf8');
      } catch {
        return undefined;
      }
    })();
    t.is(written, 'print("hello")\n', `${result.stdout}${result.stderr}`);
  });
}
