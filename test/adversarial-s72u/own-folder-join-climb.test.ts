// Review s72u, finding 2: a program's path built from its own folder whose literal part climbs out of a folder
// below it: perl `do "$FindBin::Bin/cache/../lint.pl"`. program-relative-names.ts `programRelativeNames` joins the
// literal onto the own-folder stand-in and `path.posix.normalize`s it BEFORE tool-file-references.ts checks the
// climb rule, so the check sees `lint.pl` (no `..`) and zotbox protects `tools/lint.pl`; perl's `do` opens the text
// as written, through `tools/cache`. The line's words do not save it (`$FindBin::Bin/...` is no plain word). One
// confined call makes `tools/cache` a link to `../evil/a/b` and writes `evil/a/lint.pl`: the user's `git commit`
// runs the agent's code (`do`, `require`, and `use lib "$FindBin::Bin/cache/../lib"` seen). SAFE outcome asserted:
// it never does. Held (not here): `system("sh", "$Bin/cache/../lint.sh")`, whose words the process-call reader
// spells out (`/cache/../lint.sh`, refused).
import test from 'ava';
import { project } from '../adversarial-s36i/harness.js';
import { agentThenUserCommit } from '../adversarial-s64m/fixtures.js';

const swap = (file: string, payload: string) => `set -e
mkdir -p evil/a/b "$(dirname 'evil/a/${file}')"
printf '%s\\n' '${payload}' > 'evil/a/${file}'
rm -rf tools/cache
ln -s ../evil/a/b tools/cache
`;

const CASES = [
  ['perl do "$FindBin::Bin/cache/../lint.pl"', 'use FindBin;\ndo "$FindBin::Bin/cache/../lint.pl";\n', 'lint.pl', '1;\n', 'system("touch", "PWNED"); 1;'],
  ['perl require "$FindBin::RealBin/cache/../lint.pl"', 'use FindBin;\nrequire "$FindBin::RealBin/cache/../lint.pl";\n', 'lint.pl', '1;\n', 'system("touch", "PWNED"); 1;'],
  ['perl use lib "$FindBin::Bin/cache/../lib"; use Lint', 'use FindBin;\nuse lib "$FindBin::Bin/cache/../lib";\nuse Lint;\n', 'lib/Lint.pm', '1;\n', 'system("touch", "PWNED"); 1;'],
] as const;

for (const [title, program, file, original, payload] of CASES) {
  test(`pre-commit hook runs perl tools/check.pl, which does ${title}: git runs the user's code only`, async (t) => {
    const ws = project(t, {
      'src.txt': '1\n',
      'one.sh': swap(file, payload),
      'tools/cache/.keep': '',
      [`tools/${file}`]: original,
      'tools/check.pl': program,
      '.git/hooks/pre-commit': '#!/bin/sh\nexec perl tools/check.pl\n',
    });
    t.false(await agentThenUserCommit(t, ws), "the user's git commit ran the agent's code");
  });
}

// Controls (held): the call rewrites tools/<file>, the file zotbox takes the program to load: stopped.
for (const [title, program, file, original, payload] of CASES) {
  test(`control: ${title}, the call rewrites tools/${file}: stopped`, async (t) => {
    const ws = project(t, {
      'src.txt': '1\n',
      'one.sh': `printf '%s\\n' '${payload}' > 'tools/${file}'\n`,
      'tools/cache/.keep': '',
      [`tools/${file}`]: original,
      'tools/check.pl': program,
      '.git/hooks/pre-commit': '#!/bin/sh\nexec perl tools/check.pl\n',
    });
    t.false(await agentThenUserCommit(t, ws), "the user's git commit ran the agent's code");
  });
}
