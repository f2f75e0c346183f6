// Review s67p, finding 1 (and 2): the script exception of lexical-climb.ts checks only the FIRST `..` after a folder
// name (`climbPrefix`). When that first climb is out of the script's own folder (allowed), a later `..` after another
// folder name in the same word is resolved lexically: `"$(dirname "$0")/../../tools/cache/../lint.sh"` in the user's
// `.git/hooks/pre-commit` names `<ws>/tools/lint.sh` to zotbox, while the kernel walks through `tools/cache`, which is
// on the way to neither the hook nor `tools/lint.sh`. Finding 2: a directory computed by `$(realpath …)`,
// `$(readlink -f …)`, `$(cd -P … && pwd)` is spelled out with path.normalize (pathSubstitution), so the climb is gone
// before any climb check, while realpath walks through the link first. One confined call makes `evil/a/b` and
// `evil/a/lint.sh` and replaces `tools/cache` with a link to `../evil/a/b`: the user's `git commit` runs the agent's
// `evil/a/lint.sh`. Control: another folder (`tools/other`) replaced by the same link.
import test from 'ava';
import { project } from '../adversarial-s36i/harness.js';
import { agentThenUserCommit } from '../adversarial-s64m/fixtures.js';

const swap = (link: string) => `set -e
mkdir -p evil/a/b
printf 'touch "$(git rev-parse --show-toplevel)/PWNED"\\n' > evil/a/lint.sh
rm -rf '${link}'
ln -s ../evil/a/b '${link}'
`;

for (const [title, shell, hook, link] of [
  ['1: sh "$(dirname "$0")/../../tools/cache/../lint.sh" (a second climb after the script\'s own)', 'sh', 'sh "$(dirname "$0")/../../tools/cache/../lint.sh"', 'tools/cache'],
  ['1: sourced, . "$(dirname "$0")/../../tools/cache/../lint.sh"', 'sh', '. "$(dirname "$0")/../../tools/cache/../lint.sh"', 'tools/cache'],
  ['2: . "$(realpath "$(dirname "$0")/../../tools/cache/..")/lint.sh"', 'sh', '. "$(realpath "$(dirname "$0")/../../tools/cache/..")/lint.sh"', 'tools/cache'],
  [
    '2: . "$(realpath "$(git rev-parse --show-toplevel)/tools/cache/..")/lint.sh" (no script climb at all)',
    'sh',
    '. "$(realpath "$(git rev-parse --show-toplevel)/tools/cache/..")/lint.sh"',
    'tools/cache',
  ],
  ['2: . "$(cd -P "$(dirname "$0")/../../tools/cache/.." && pwd)/lint.sh"', 'sh', '. "$(cd -P "$(dirname "$0")/../../tools/cache/.." && pwd)/lint.sh"', 'tools/cache'],
  ['control: another folder replaced by a link', 'sh', 'sh "$(dirname "$0")/../../tools/cache/../lint.sh"', 'tools/other'],
  ['control: the literal sh tools/cache/../lint.sh (refused since s66o)', 'sh', 'sh tools/cache/../lint.sh', 'tools/cache'],
] as const) {
  test(`pre-commit hook runs ${title}: git runs the user's script`, async (t) => {
    const ws = project(t, {
      'src.txt': '1\n',
      'one.sh': swap(link),
      'tools/lint.sh': 'exit 0\n',
      'tools/cache/.keep': '',
      'tools/other/.keep': '',
      '.git/hooks/pre-commit': `#!/bin/${shell}\n${hook}\n`,
    });
    // SAFE: the agent's script never ran.
    t.false(await agentThenUserCommit(t, ws), "the user's git commit ran the agent's script");
  });
}
