// The directories Perl code puts on @INC (perl-search-paths.ts): FindBin's directory resolved (it refused every
// writer), literals as written, and what the grammar cannot spell out unresolved. Expectations by hand from perl's rules.
import test from 'ava';
import { perlLibraryPaths } from '../../../../src/host/executors/confine/perl-search-paths.js';

const directories = (code: string) => {
  const found = perlLibraryPaths(code);
  return { trees: found.names.filter((name) => name.tree).map((name) => `${name.anchor === 'file' ? 'file:' : ''}${name.text}`), computed: found.computed.length };
};

for (const [code, expected] of [
  ['use FindBin qw($Bin);\nuse lib "$Bin/../lib";', ['file:../lib']],
  ['use FindBin \'$RealBin\';\nuse lib "$RealBin/../lib";', ['file:../lib']],
  ['use FindBin;\nuse lib "$FindBin::Bin/../lib";', ['file:../lib']],
  ['use FindBin;\nuse lib "${FindBin::RealBin}/lib", "$FindBin::Bin/../t/lib";', ['file:lib', 'file:../t/lib']],
  ['use FindBin;\nuse lib $FindBin::Bin . "/../lib";', ['file:../lib']],
  ['use FindBin;\nuse File::Spec;\nuse lib File::Spec->catdir($FindBin::Bin, File::Spec->updir, "lib");', ['file:../lib']],
  ['use File::Basename;\nuse lib dirname(__FILE__) . "/../lib";', ['file:../lib']],
  ['use File::Basename;\nuse Cwd qw(abs_path);\nuse lib dirname(dirname(abs_path(__FILE__))) . "/lib";', ['file:../lib']],
  ['use lib File::Basename::dirname(Cwd::abs_path(__FILE__));', ['file:.']],
  ['use FindBin;\nBEGIN { unshift @INC, "$FindBin::Bin/lib" }', ['file:lib']],
  ['use FindBin;\nlib->import("$FindBin::Bin/lib");', ['file:lib']],
  ['use lib "lib";', ['lib']],
  ['use lib qw(lib t/lib);', ['lib', 't/lib']],
  ["use lib ('lib', 'vendor');", ['lib', 'vendor']],
  ['unshift(@INC, "vendor");', ['vendor']],
  ['push @INC, "local/lib/perl5" if -d "local";', ['local/lib/perl5']],
] as const)
  test(`@INC: ${code.split('\n').at(-1) ?? ''} → ${expected.join(', ')}`, (t) => {
    t.deepEqual(directories(code), { trees: [...expected], computed: 0 });
  });

for (const code of [
  // $Bin not imported from FindBin is an unset package variable.
  'use lib "$Bin/../lib";',
  'use lib $ENV{TOOLS};',
  'use lib "$ENV{HOME}/lib";',
  'use File::Basename;\nuse lib dirname(dirname(__FILE__)) . "/lib";',
  'use lib dirname(__FILE__) . "/lib";',
  'my $dir = "lib";\nuse lib $dir;',
  '@INC = ("lib", @INC);',
  'splice @INC, 0, 0, "lib";',
  // In a module FindBin names the script perl runs, not this file.
  'package My::Tool;\nuse FindBin;\nuse lib "$FindBin::Bin/lib";',
  'package My::Tool;\nuse FindBin;\nuse lib $FindBin::Bin . "/lib";',
])
  test(`@INC: ${code.replaceAll('\n', '; ')} is unresolved`, (t) => {
    t.is(directories(code).computed, 1);
  });

test('a directory on @INC names the modules the program loads there (it may be the workspace itself)', (t) => {
  const names = perlLibraryPaths('use FindBin qw($Bin);\nuse lib "$Bin/..";\nuse My::Checker;\nrequire Other;\n').names;
  t.deepEqual(
    names.map((name) => `${name.anchor === 'file' ? 'file:' : ''}${name.text}${name.tree ? '/**' : ''}`),
    ['file:../**', 'file:../__zotbox_module_search_directory__@perl', 'file:../FindBin.pm', 'file:../My/Checker.pm', 'file:../Other.pm'],
  );
});
