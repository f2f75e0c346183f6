// Review s37k of issue 21, an OVER-DENIAL: Perl's canonical `use FindBin qw($Bin); use lib "$Bin/../lib";` (or
// `use lib "$FindBin::Bin/../lib"`) in a hook's program is taken as a computed search path
// (interpreter-operands.ts perlLibraryPaths: `..` after $FindBin::Bin, or the imported `$Bin`), so EVERY write and
// command is refused in an ordinary Perl project whose pre-commit hook runs `perl bin/check.pl`. Both spellings name
// one directory (the script's directory's parent's lib/): protecting it is enough.
// Safe-and-usable outcome asserted: an unrelated file stays writable, lib/Checker.pm is refused.
import test from 'ava';
import { readFileSync } from 'node:fs';
import path from 'node:path';
import { agentWrites, project } from '../adversarial-s36i/harness.js';

for (const [name, lib] of [
  ['$Bin imported from FindBin', 'use FindBin qw($Bin);\nuse lib "$Bin/../lib";'],
  ['$FindBin::Bin', 'use FindBin;\nuse lib "$FindBin::Bin/../lib";'],
] as const) {
  const files = {
    '.git/hooks/pre-commit': '#!/bin/sh\nexec perl bin/check.pl\n',
    'bin/check.pl': `use strict;\n${lib}\nuse Checker;\nChecker::run();\n`,
    'lib/Checker.pm': 'package Checker; sub run { 1 } 1;\n',
    'README.md': 'project\n',
  };
  test(`${name}: an ordinary edit is written`, async (t) => {
    const ws = project(t, files);
    t.log(await agentWrites(t, ws, 'README.md', 'project, edited\n'));
    t.is(readFileSync(path.join(ws, 'README.md'), 'utf8'), 'project, edited\n', 'every write was refused');
  });
  test(`${name}: the module the hook loads from lib/ is refused`, async (t) => {
    const ws = project(t, files);
    t.log(await agentWrites(t, ws, 'lib/Checker.pm', 'package Checker; sub run { system("touch /tmp/PWNED-s37k") } 1;\n'));
    t.is(readFileSync(path.join(ws, 'lib/Checker.pm'), 'utf8'), files['lib/Checker.pm']);
  });
}
