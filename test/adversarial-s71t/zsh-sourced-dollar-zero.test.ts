// Review s71t, finding 5: zsh (FUNCTION_ARGZERO, on by default) sets `$0` to the SOURCED file while it is read.
// script-invocation.ts invocationOf gives every `.`/`source` the sourcer's `$0` whatever the shell (the s69r fix, right
// for sh and bash), so in a file a `#!/usr/bin/env zsh` hook sources, `$(dirname "$0")` is read as the HOOK's folder
// while zsh gives the library's. One CONFINED call overwrites the library's neighbour; the user's `git commit` runs
// it. SAFE: the agent's script never ran. Needs zsh (.ci/run installs it; without it the test fails).
import { chmodSync } from 'node:fs';
import path from 'node:path';
import test from 'ava';
import { git, project } from '../adversarial-s36i/harness.js';
import { agentThenUserCommit } from '../adversarial-s64m/fixtures.js';

const overwrite = (file: string) => `set -e
printf 'touch "$(git rev-parse --show-toplevel)/PWNED"\\n' > ${file}
`;

test(`5: #!/usr/bin/env zsh .githooks/pre-commit sources scripts/lib.zsh, which runs sh "$(dirname "$0")/lint.sh" (zsh: $0 is lib.zsh): git runs the user's script`, async (t) => {
  const ws = project(t, {
    'src.txt': '1\n',
    'one.sh': overwrite('scripts/lint.sh'),
    'scripts/lint.sh': 'exit 0\n',
    'scripts/lib.zsh': 'sh "$(dirname "$0")/lint.sh"\n',
    '.githooks/pre-commit': '#!/usr/bin/env zsh\nsource scripts/lib.zsh\n',
  });
  chmodSync(path.join(ws, '.githooks/pre-commit'), 0o755);
  git(ws, 'config', 'core.hooksPath', '.githooks');
  // SAFE: the agent's script never ran.
  t.false(await agentThenUserCommit(t, ws), "the user's git commit ran the agent's script");
});
