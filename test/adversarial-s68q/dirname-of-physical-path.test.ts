// Review s68q, finding 1: shell-command-words.ts `pathSubstitution` spells `$(realpath W)`, `$(readlink -f W)`,
// `$(cd -P W && pwd)`, `$(cd W && pwd -P)` as path.normalize(W): the text, while each of them gives the PHYSICAL path
// (a link in W followed). The climb check (climbsOutsideOwn) sees no `..` in W, so that is tidied nowhere; but an
// outer `$(dirname …)` then drops the last component as text, exactly as a `..` would be walked: `$(dirname
// "$(realpath "$(git rev-parse --show-toplevel)/tools/cache")")/lint.sh` is `<ws>/tools/lint.sh` to zotbox, and
// `<where cache leads>/../lint.sh` to the shell. `tools/cache` is on the way to nothing zotbox protects. One confined
// call makes `evil/a/b`, `evil/a/lint.sh`, and replaces `tools/cache` with a link to `../evil/a/b`: the user's `git
// commit` sources the agent's `evil/a/lint.sh`. Held: the `cd -P` spelling (refused: the call stops). Control: a textual `$(dirname …)` (held, the shell
// drops `cache` as text too).
import test from 'ava';
import { project } from '../adversarial-s36i/harness.js';
import { agentThenUserCommit } from '../adversarial-s64m/fixtures.js';

const swap = `set -e
mkdir -p evil/a/b
printf 'touch "$(git rev-parse --show-toplevel)/PWNED"\\n' > evil/a/lint.sh
rm -rf tools/cache
ln -s ../evil/a/b tools/cache
`;

for (const [title, hook] of [
  ['. "$(dirname "$(realpath "$(git rev-parse --show-toplevel)/tools/cache")")/lint.sh"', '. "$(dirname "$(realpath "$(git rev-parse --show-toplevel)/tools/cache")")/lint.sh"'],
  ['. "$(dirname "$(realpath "$(dirname "$0")/../../tools/cache")")/lint.sh" (only the script\'s own climb)', '. "$(dirname "$(realpath "$(dirname "$0")/../../tools/cache")")/lint.sh"'],
  ['. "$(dirname "$(cd -P "$(dirname "$0")/../../tools/cache" && pwd)")/lint.sh"', '. "$(dirname "$(cd -P "$(dirname "$0")/../../tools/cache" && pwd)")/lint.sh"'],
  ['. "$(dirname "$(readlink -f "$(dirname "$0")/../../tools/cache")")/lint.sh"', '. "$(dirname "$(readlink -f "$(dirname "$0")/../../tools/cache")")/lint.sh"'],
  ['control: . "$(dirname "$(dirname "$0")/../../tools/cache")/lint.sh" (textual dirname, as the shell)', '. "$(dirname "$(dirname "$0")/../../tools/cache")/lint.sh"'],
] as const) {
  test(`pre-commit hook runs ${title}: git runs the user's script`, async (t) => {
    const ws = project(t, {
      'src.txt': '1\n',
      'one.sh': swap,
      'tools/lint.sh': 'exit 0\n',
      'tools/cache/.keep': '',
      '.git/hooks/pre-commit': `#!/bin/sh\n${hook}\n`,
    });
    // SAFE: the agent's script never ran.
    t.false(await agentThenUserCommit(t, ws), "the user's git commit ran the agent's script");
  });
}
