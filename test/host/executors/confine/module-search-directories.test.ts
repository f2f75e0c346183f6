// A directory a Perl or Ruby program puts on its module search path (module-search-directories.ts): protected whole,
// or unresolved where it holds a write scope. Expectations by hand.
import test from 'ava';
import { mkdirSync, realpathSync, writeFileSync } from 'node:fs';
import path from 'node:path';
import { searchDirectoryLocation, searchDirectoryName } from '../../../../src/host/executors/confine/module-search-directories.js';
import { toolFileReferences } from '../../../../src/host/executors/confine/tool-file-references.js';
import { tempDir } from '../../../fixtures/temp.js';

test('a search directory inside the write scope is protected whole; one that holds a write scope is unresolved', (t) => {
  const inside = searchDirectoryLocation(path.join('/ws', searchDirectoryName('lib', 'perl')), 'named by a hook', ['/ws']);
  t.deepEqual(inside !== undefined && 'location' in inside ? [inside.location.path, inside.location.tree] : inside, ['/ws/lib', true]);
  for (const directory of ['/ws', '/']) {
    const holds = searchDirectoryLocation(path.join(directory, searchDirectoryName('.', 'ruby')), 'named by a hook', ['/ws']);
    t.regex(holds !== undefined && 'unresolved' in holds ? holds.unresolved : '', /Ruby looks up every module .* holds the write scope \/ws/u, directory);
  }
  t.is(searchDirectoryLocation('/ws/lib/Checker.pm', 'x', ['/ws']), undefined);
});

test("a hook's Perl program that puts the worktree top on @INC, or ruby -I ., refuses every writer; lib/ is protected whole", (t) => {
  const ws = path.join(realpathSync(tempDir(t, 'zb-searchdir-')), 'ws');
  const files: Record<string, string> = {
    '.git/hooks/pre-commit': '#!/bin/sh\nperl bin/check.pl\n',
    '.git/hooks/pre-push': '#!/bin/sh\nperl bin/lint.pl\n',
    'bin/check.pl': 'use FindBin qw($Bin);\nuse lib "$Bin/..";\nuse Checker;\n',
    'bin/lint.pl': 'use FindBin qw($Bin);\nuse lib "$Bin/../lib";\nuse Linter;\n',
    'lib/Linter.pm': '1;\n',
  };
  for (const [name, content] of Object.entries(files)) {
    mkdirSync(path.dirname(path.join(ws, name)), { recursive: true });
    writeFileSync(path.join(ws, name), content);
  }
  const found = toolFileReferences([], [ws], { hookDirectories: [{ directory: path.join(ws, '.git/hooks'), top: ws }] });
  t.true(
    found.unresolved.some((line) => line.startsWith(`${ws}: `) && /Perl looks up every module/u.test(line)),
    found.unresolved.join('\n'),
  );
  t.true(found.locations.some((l) => l.path === path.join(ws, 'lib') && l.tree));
  const ruby = path.join(realpathSync(tempDir(t, 'zb-searchdir-')), 'ws');
  mkdirSync(path.join(ruby, '.git/hooks'), { recursive: true });
  writeFileSync(path.join(ruby, '.git/hooks/pre-commit'), '#!/bin/sh\nruby -I . tools/check.rb\n');
  const rubyFound = toolFileReferences([], [ruby], { hookDirectories: [{ directory: path.join(ruby, '.git/hooks'), top: ruby }] });
  t.true(
    rubyFound.unresolved.some((line) => /Ruby looks up every module/u.test(line)),
    rubyFound.unresolved.join('\n'),
  );
});
