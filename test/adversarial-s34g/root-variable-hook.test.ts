// Finding (over-denial): the script-directory idiom with a parent step, `ROOT="$(cd "$(dirname "$0")/../.." && pwd)"`
// (the repository's top from .git/hooks/; `/..` from a .githooks/ or scripts/ directory), is not among the spellings
// of the script's own directory the reader knows (`$(cd "$(dirname "$0")" && pwd)` is), so `"$ROOT/scripts/check.sh"`
// is unresolved and every write and command of every agent in the repository is refused, though the hook names
// exactly one file. (`REPO_ROOT=$(git rev-parse --show-toplevel)` is read: the control below passes now.)
// Safe outcome: an ordinary write succeeds (and scripts/check.sh stays protected).
import test from 'ava';
import { agentRun, world, writtenText } from './harness.js';

const hooks = {
  'REPO_ROOT=$(git rev-parse --show-toplevel)': '#!/bin/sh\nREPO_ROOT=$(git rev-parse --show-toplevel)\ncd "$REPO_ROOT" || exit 1\necho "checking $REPO_ROOT"\n',
  'ROOT="$(cd "$(dirname "$0")/../.." && pwd)"': '#!/bin/sh\nROOT="$(cd "$(dirname "$0")/../.." && pwd)"\n"$ROOT/scripts/check.sh"\n',
};

for (const [name, hook] of Object.entries(hooks)) {
  test(`a hook with ${name} does not refuse an ordinary write${name.startsWith('REPO_ROOT') ? ' (control, passes now)' : ''}`, async (t) => {
    const w = world(t, { '.git/hooks/pre-commit': hook, 'scripts/check.sh': 'echo ok\n' }, ['.git/hooks/pre-commit', 'scripts/check.sh']);
    const result = await agentRun(w, [{ name: 'write', input: { path: 'src/app.py', content: 'print("hello")\n' } }]);
    const written = writtenText(w, 'src/app.py');
    t.is(written, 'print("hello")\n', `${result.stdout}${result.stderr}`);
  });
}
