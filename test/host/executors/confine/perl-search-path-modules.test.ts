// Perl modules that change @INC when used (perl-search-path-modules.ts): the directories each one searches, spelled out
// from the module's own code (FindBin::libs 3.0.2, Test::Lib 0.003, blib, lib::relative), and every other use of a
// module named as one of them unresolved. Expectations by hand.
import test from 'ava';
import { mkdirSync, realpathSync, writeFileSync } from 'node:fs';
import path from 'node:path';
import { searchDirectoryLocation, searchWalkLimitName } from '../../../../src/host/executors/confine/module-search-directories.js';
import { PERL_WALK_LEVELS, perlSearchPathModules } from '../../../../src/host/executors/confine/perl-search-path-modules.js';
import { toolFileReferences } from '../../../../src/host/executors/confine/tool-file-references.js';
import { tempDir } from '../../../fixtures/temp.js';

const trees = (code: string, script = true) => {
  const found = perlSearchPathModules(code, [], script);
  return { trees: found.names.filter((name) => name.tree).map((name) => `${name.anchor === 'file' ? 'file:' : ''}${name.text}`), computed: found.computed.length };
};
const walk = (base: string) => Array.from({ length: PERL_WALK_LEVELS + 1 }, (_, levels) => `file:${'../'.repeat(levels)}${base}`);

for (const [code, expected] of [
  ['use FindBin::libs;', walk('lib')],
  ['use FindBin::libs qw( base=altlib export print );', walk('altlib')],
  ["use FindBin::libs 'base=etc/perl5', 'subdir=Local';", walk('perl5')],
  ['BEGIN { use FindBin::libs qw(realbin ignore=/,/usr,/opt) }', walk('lib')],
  ['use Test::Lib;', ['file:../t/lib', 'file:../../t/lib', 'file:../../../t/lib', 'file:../../../../t/lib', 'file:../../../../../t/lib', 'file:../../../../../../t/lib']],
  ['use tlib;', ['file:../t/lib', 'file:../../t/lib', 'file:../../../t/lib', 'file:../../../../t/lib', 'file:../../../../../t/lib', 'file:../../../../../../t/lib']],
  ['use blib;', ['blib', '../blib', '../../blib', '../../../blib', '../../../../blib']],
  ['use ExtUtils::testlib;', ['blib']],
  ["use lib::relative '../lib', 'vendor';", ['file:../lib', 'file:vendor']],
  ['use lib::abs qw(-soft ../lib /opt/perl);', ['file:../lib', '/opt/perl']],
  // Not a module that changes @INC: a capitalised module named Lib, a comment, a string.
  ['use My::Lib;\nuse Mojo::Base -base;', []],
  ['# use local::lib if you like\nprint "use blib\\n";', []],
] as const)
  test(`search-path module: ${code.replaceAll('\n', '; ')} → ${expected.length} directories`, (t) => {
    t.deepEqual(trees(code), { trees: [...expected], computed: 0 });
  });

for (const [code, script] of [
  ['use local::lib;', true],
  ["use local::lib 'local';", true],
  ['use rlib;', true],
  ['use lib::byversion q[test/%v/lib];', true],
  ['use FindBin::libs qw(Bin=/tmp);', true],
  ["use FindBin::libs 'Bin=' . __FILE__;", true],
  ['use FindBin::libs "base=$name";', true],
  // In a module FindBin names the script perl runs, not this file.
  ['package My::Tool;\nuse FindBin::libs;', false],
  ["use Test::Lib '../t';", true],
  ["use blib '/opt/build';", true],
  ["use lib::abs 'modules/*/lib';", true],
  ['require FindBin::libs;\nFindBin::libs->import(qw(base=lib));', true],
] as const)
  test(`search-path module: ${code.replaceAll('\n', '; ')} is unresolved`, (t) => {
    t.is(trees(code, script).computed, 1);
  });

test('the walk to the root is unresolved where the program lies deeper than it is spelled out', (t) => {
  const limit = searchWalkLimitName(PERL_WALK_LEVELS, 'perl');
  const shallow = searchDirectoryLocation(path.resolve('/ws/tools', limit), 'x', ['/ws']);
  t.true(shallow !== undefined && 'location' in shallow && !shallow.location.tree);
  const deep = path.join('/ws', ...Array.from({ length: PERL_WALK_LEVELS }, (_, index) => `d${index}`));
  const far = searchDirectoryLocation(path.resolve(deep, limit), 'x', ['/ws']);
  t.regex(far !== undefined && 'unresolved' in far ? far.unresolved : '', /up to the root/u);
});

test("a hook's program using FindBin::libs protects every lib/ from its directory up; Test::Lib the t/lib above it", (t) => {
  const ws = path.join(realpathSync(tempDir(t, 'zb-perlmods-')), 'ws');
  const files: Record<string, string> = {
    '.git/hooks/pre-commit': '#!/bin/sh\nperl tools/sub/check.pl && perl t/unit/lint.t\n',
    'tools/sub/check.pl': 'use strict;\nuse FindBin::libs;\nuse Checker;\n',
    't/unit/lint.t': 'use Test::Lib;\nuse Helper;\n',
    'README.md': 'x\n',
  };
  for (const [name, content] of Object.entries(files)) {
    mkdirSync(path.dirname(path.join(ws, name)), { recursive: true });
    writeFileSync(path.join(ws, name), content);
  }
  const found = toolFileReferences([], [ws], { hookDirectories: [{ directory: path.join(ws, '.git/hooks'), top: ws }] });
  t.deepEqual(found.unresolved, []);
  for (const directory of ['tools/sub/lib', 'tools/lib', 'lib', 't/lib'])
    t.true(
      found.locations.some((l) => l.path === path.join(ws, directory) && l.tree),
      directory,
    );
  // Ordinary work elsewhere stays allowed.
  t.false(found.locations.some((l) => l.path === ws || l.path === path.join(ws, 'tools') || l.path === path.join(ws, 'README.md')));
});
