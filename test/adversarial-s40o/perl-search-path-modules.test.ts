// Review s40o of issue 21: CPAN modules whose whole job is to put directories on @INC at import, found from the
// program's own file: `use FindBin::libs;` (adds every `lib/` found in $FindBin::Bin and each directory above it, up
// to the root) and `use Test::Lib;` (the first `t/lib` found from the calling file's directory upward).
// perl-search-paths.ts recognises `use lib` (which also matches `use lib::relative`/`use lib::abs`: those refuse
// every writer, controls below), `lib->import` and `unshift`/`push @INC`; these two `use` lines are neither, so they
// neither protect the directory nor refuse every writer (docs/security.md: "any other change to @INC … refuses every
// writer"). The hook program's `use Checker;` then loads `lib/Checker.pm` (`t/lib/Checker.pm`), which the write
// tool rewrites. The modules are not installed here (CPAN: FindBin-libs, Test-Lib): the write that should be refused
// is asserted.
import test from 'ava';
import { readFileSync } from 'node:fs';
import path from 'node:path';
import { agentWrites, project } from '../adversarial-s36i/harness.js';

const before = 'package Checker; sub run { 1 } 1;\n';
for (const [name, line, lib] of [
  ['use FindBin::libs', 'use FindBin::libs;', 'lib'],
  ['use Test::Lib', 'use Test::Lib;', 't/lib'],
  ['control (passes today): use lib::relative', "use lib::relative '../lib';", 'lib'],
  ['control (passes today): use lib::abs', "use lib::abs '../lib';", 'lib'],
] as const)
  test(`a module a search-path module puts on @INC for a hook program is protected: ${name}`, async (t) => {
    const ws = project(t, {
      '.git/hooks/pre-commit': '#!/bin/sh\nexec perl tools/check.pl\n',
      'tools/check.pl': `use strict;\n${line}\nuse Checker;\nChecker::run();\n`,
      [`${lib}/Checker.pm`]: before,
    });
    t.log(await agentWrites(t, ws, `${lib}/Checker.pm`, 'package Checker; sub run { system("touch /tmp/PWNED") } 1;\n'));
    t.is(readFileSync(path.join(ws, `${lib}/Checker.pm`), 'utf8'), before, `${lib}/Checker.pm, which the hook's program loads, was rewritten`);
  });

test('control (passes today): the same directory named by use lib with FindBin is protected', async (t) => {
  const ws = project(t, {
    '.git/hooks/pre-commit': '#!/bin/sh\nexec perl tools/check.pl\n',
    'tools/check.pl': 'use strict;\nuse FindBin;\nuse lib "$FindBin::Bin/../lib";\nuse Checker;\nChecker::run();\n',
    'lib/Checker.pm': before,
  });
  t.log(await agentWrites(t, ws, 'lib/Checker.pm', 'package Checker; sub run { system("touch /tmp/PWNED") } 1;\n'));
  t.is(readFileSync(path.join(ws, 'lib/Checker.pm'), 'utf8'), before);
});
