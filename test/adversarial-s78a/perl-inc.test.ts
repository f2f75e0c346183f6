// Review s78a: Perl modules found through @INC entries that are not written as `use lib` in the program: perl's `-I`
// in the hook's command or on the program's `#!` line, PERL5LIB set by the hook, and module names review s76y's reader
// skips (lowercase, `require "Util.pm"`, a run-time `eval "require $name"`). The hook runs `perl tools/check.pl`
// (in the spelling given), which uses a module in tools/lib (each checked by hand with perl 5.36: the module runs).
// One confined call rewrites the module: SAFE outcome asserted by hand: the user's `git commit` never runs the agent's
// code. Cases that held are kept as regression checks.
import test from 'ava';
import { project } from '../adversarial-s36i/harness.js';
import { agentThenUserCommit } from '../adversarial-s64m/fixtures.js';

const payload = (name: string) => `package ${name}; open(my $f, ">", "PWNED"); close($f); 1;`;

// [title, hook command, tools/check.pl text, module file under tools/lib, package name]
const CASES: readonly (readonly [string, string, string, string, string])[] = [
  ['hook runs perl -Itools/lib tools/check.pl; use Util', 'perl -Itools/lib tools/check.pl', 'use Util;\n', 'Util.pm', 'Util'],
  ['hook runs PERL5LIB=tools/lib perl tools/check.pl; use Util', 'PERL5LIB=tools/lib perl tools/check.pl', 'use Util;\n', 'Util.pm', 'Util'],
  ['hook exports PERL5LIB=tools/lib; use Util', 'export PERL5LIB=tools/lib; perl tools/check.pl', 'use Util;\n', 'Util.pm', 'Util'],
  ['#!/usr/bin/perl -Itools/lib on check.pl; use Util', 'perl tools/check.pl', '#!/usr/bin/perl -Itools/lib\nuse Util;\n', 'Util.pm', 'Util'],
  ['BEGIN { unshift @INC, "tools/lib" }; use Util', 'perl tools/check.pl', 'BEGIN { unshift @INC, "tools/lib" }\nuse Util;\n', 'Util.pm', 'Util'],
  ['use lib "$FindBin::Bin/lib"; use util (lowercase)', 'perl tools/check.pl', 'use FindBin;\nuse lib "$FindBin::Bin/lib";\nuse util;\n', 'util.pm', 'util'],
  ['use lib "$FindBin::Bin/lib"; require "Util.pm"', 'perl tools/check.pl', 'use FindBin;\nuse lib "$FindBin::Bin/lib";\nrequire "Util.pm";\n', 'Util.pm', 'Util'],
  ['use lib "$FindBin::Bin/lib"; eval "require $name"', 'perl tools/check.pl', 'use FindBin;\nuse lib "$FindBin::Bin/lib";\nmy $name = "Ut" . "il";\neval "require $name";\n', 'Util.pm', 'Util'],
  ['use lib "$FindBin::Bin/lib"; use My::Util (nested)', 'perl tools/check.pl', 'use FindBin;\nuse lib "$FindBin::Bin/lib";\nuse My::Util;\n', 'My/Util.pm', 'My::Util'],
];

for (const [title, hook, main, module, name] of CASES) {
  test(`${title}; the call rewrites tools/lib/${module}: git runs the user's code only`, async (t) => {
    const ws = project(t, {
      'src.txt': '1\n',
      'one.sh': `printf '%s\\n' '${payload(name)}' > 'tools/lib/${module}'\n`,
      'tools/check.pl': main,
      [`tools/lib/${module}`]: `package ${name};\n1;\n`,
      '.git/hooks/pre-commit': `#!/bin/sh\n${hook}\n`,
    });
    t.false(await agentThenUserCommit(t, ws), "the user's git commit ran the agent's code");
  });
}
