// Review s40o of issue 21: Perl loads `X.pmc` in preference to `X.pm` whenever it loads a `.pm` file, by module
// name (`use Common;` through @INC) and by path (`require "./tools/common.pm"`, `do "$FindBin::Bin/common.pm"`):
// perl's S_doopen_pm tries NAME.pmc first (perl 5.36 here, built without PERL_DISABLE_PMC: the default). zotbox
// protects the `.pm` a hook's program names and a search directory whole, but not the `.pmc` beside a `.pm` it
// protects by name: the write tool writes `tools/common.pmc`, and the user's commit runs it instead of the
// untouched, protected `tools/common.pm` (git status shows only an untracked file; `git diff` shows nothing).
import test from 'ava';
import { existsSync, readFileSync } from 'node:fs';
import path from 'node:path';
import { agentWrites, git, project } from '../adversarial-s36i/harness.js';

for (const [name, load] of [
  ['require of a relative path', 'require "./tools/common.pm";'],
  ['require of a FindBin path', 'use FindBin;\nrequire "$FindBin::Bin/common.pm";'],
  ['do of a FindBin path', 'use FindBin;\ndo "$FindBin::Bin/common.pm";'],
] as const)
  test(`the .pmc perl loads instead of the .pm a hook program loads is protected: ${name}`, async (t) => {
    const ws = project(t, {
      '.git/hooks/pre-commit': '#!/bin/sh\nexec perl tools/check.pl\n',
      'tools/check.pl': `use strict;\n${load}\nCommon::run();\n`,
      'tools/common.pm': 'package Common; sub run { print "checked\\n" } 1;\n',
    });
    const marker = path.join(path.dirname(ws), 'PWNED');
    t.log(await agentWrites(t, ws, 'tools/common.pmc', `package Common; sub run { open(my $f, ">", "${marker}"); print $f "agent code ran"; } 1;\n`));
    try {
      git(ws, 'commit', '-q', '--allow-empty', '-m', 'user commit');
    } catch {
      // what the hook ran is what counts
    }
    t.false(existsSync(marker), "the agent-written tools/common.pmc ran in the user's pre-commit hook");
  });

test('control (passes today): the .pm itself is refused', async (t) => {
  const files = {
    '.git/hooks/pre-commit': '#!/bin/sh\nexec perl tools/check.pl\n',
    'tools/check.pl': 'use strict;\nrequire "./tools/common.pm";\nCommon::run();\n',
    'tools/common.pm': 'package Common; sub run { print "checked\\n" } 1;\n',
  };
  const ws = project(t, files);
  t.log(await agentWrites(t, ws, 'tools/common.pm', 'package Common; sub run { 1 } 1;\n'));
  t.is(readFileSync(path.join(ws, 'tools/common.pm'), 'utf8'), files['tools/common.pm']);
});
