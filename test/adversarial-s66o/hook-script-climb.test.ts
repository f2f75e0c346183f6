// Review s66o, finding 1: a `..` after a folder name in a HOOK SCRIPT is resolved lexically (shell-command-words.ts
// skips climbsOutOfName when `reading.script`, on the reasoning that a script's own folder is on the way to the
// script). A literal `sh tools/cache/../lint.sh` in the user's pre-commit hook names `tools/lint.sh` to zotbox, which
// binds it read-only, while `tools/cache` is no folder on the way to the hook or to `tools/lint.sh`. One confined
// call makes `evil/a/b` and `evil/a/lint.sh` and replaces `tools/cache` with a link to `../evil/a/b`: the kernel
// walks `evil/a/b/..` = `evil/a`, and the user's `git commit` runs the agent's `evil/a/lint.sh`. Control: another
// folder (`tools/other`) replaced by the same link. Variants: sourced (`. tools/cache/../lint.sh`), a physical
// `cd -P tools/cache/..`, and the climb in a script the hook runs (`tools/run.sh`); a variable (`d=tools/cache`) held.
import test from 'ava';
import { project } from '../adversarial-s36i/harness.js';
import { agentThenUserCommit } from '../adversarial-s64m/fixtures.js';

const swap = (link: string) => `set -e
mkdir -p evil/a/b
printf 'touch "$(git rev-parse --show-toplevel)/PWNED"\\n' > evil/a/lint.sh
rm -rf '${link}'
ln -s ../evil/a/b '${link}'
`;

for (const [title, hook, link] of [
  ['sh tools/cache/../lint.sh, the folder before the .. replaced by a link', 'sh tools/cache/../lint.sh', 'tools/cache'],
  ['. tools/cache/../lint.sh (sourced), the folder before the .. replaced by a link', '. tools/cache/../lint.sh', 'tools/cache'],
  ['a variable: d=tools/cache; sh "$d/../lint.sh", the folder replaced by a link', 'd=tools/cache\nsh "$d/../lint.sh"', 'tools/cache'],
  ['cd -P tools/cache/.. && sh lint.sh (a physical cd), the folder replaced by a link', 'cd -P tools/cache/.. && sh lint.sh', 'tools/cache'],
  ['sh tools/run.sh, whose own text runs sh tools/cache/../lint.sh, the folder replaced by a link', 'sh tools/run.sh', 'tools/cache'],
  ['control: another folder replaced by a link', 'sh tools/cache/../lint.sh', 'tools/other'],
] as const) {
  test(`pre-commit hook runs ${title}: git runs the user's script`, async (t) => {
    const ws = project(t, {
      'src.txt': '1\n',
      'one.sh': swap(link),
      'tools/lint.sh': 'exit 0\n',
      'tools/run.sh': 'sh tools/cache/../lint.sh\n',
      'tools/cache/.keep': '',
      'tools/other/.keep': '',
      '.git/hooks/pre-commit': `#!/bin/sh\n${hook}\n`,
    });
    // SAFE: the agent's script never ran.
    t.false(await agentThenUserCommit(t, ws), "the user's git commit ran the agent's script");
  });
}
