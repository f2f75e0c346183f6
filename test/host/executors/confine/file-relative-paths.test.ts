// The algebra of a path anchored at the program file (file-relative-paths.ts): each step up, joins and concatenation
// by hand from the languages' rules, and the single binding a name may be traced to.
import test from 'ava';
import {
  concatenated,
  directoryOf,
  isAncestor,
  joinPath,
  literalPath,
  programDirectory,
  programFile,
  searchDirectory,
  singleBinding,
  workingDirectory,
} from '../../../../src/host/executors/confine/file-relative-paths.js';

test('one step up from the file is its directory; from a directory held absolute, its parent; from a relative one, nothing zotbox can name', (t) => {
  t.deepEqual(searchDirectory(directoryOf(programFile(true))!), { text: '.', anchor: 'file' });
  t.deepEqual(searchDirectory(directoryOf(directoryOf(programFile(true))!)!), { text: '..', anchor: 'file' });
  // dirname("check.pl") is ".", and dirname(".") is "." again: not the directory above.
  t.is(directoryOf(directoryOf(programFile(false))!), undefined);
  t.is(directoryOf(literalPath('lib')), undefined);
  t.deepEqual(searchDirectory(directoryOf(workingDirectory)!), { text: '..' });
});

test('a component joined on is lexical; an absolute one replaces; a name with other characters is none', (t) => {
  t.deepEqual(searchDirectory(joinPath(programDirectory, '../src')!), { text: '../src', anchor: 'file' });
  t.deepEqual(searchDirectory(joinPath(programDirectory, '/opt/lib')!), { text: '/opt/lib' });
  // Ruby's File.expand_path("../lib", __FILE__): the file name is the step "..' takes back.
  t.deepEqual(searchDirectory(joinPath(programFile(true), '../lib')!), { text: 'lib', anchor: 'file' });
  t.is(joinPath(programDirectory, '$HOME/lib'), undefined);
  t.is(joinPath(programDirectory, '~/lib'), undefined);
  t.is(searchDirectory(programFile(true)), undefined);
});

test('concatenation: strings as text, "/more" after a directory held absolute, nothing else', (t) => {
  t.deepEqual(searchDirectory(concatenated(programDirectory, literalPath('/../lib'))!), { text: '../lib', anchor: 'file' });
  t.deepEqual(searchDirectory(concatenated(literalPath('li'), literalPath('b'))!), { text: 'lib' });
  t.deepEqual(searchDirectory(concatenated(literalPath(''), programDirectory)!), { text: '.', anchor: 'file' });
  t.is(concatenated(programDirectory, literalPath('lib')), undefined);
  t.is(concatenated(literalPath('x'), programDirectory), undefined);
  t.is(concatenated(programFile(true), literalPath('/x')), undefined);
});

test('the directories that may hold the workspace: the file directory and those above it', (t) => {
  t.true(isAncestor({ text: '../..', anchor: 'file' }));
  t.true(isAncestor({ text: '.', anchor: 'file' }));
  t.false(isAncestor({ text: '../src', anchor: 'file' }));
});

test('a name is traced only to its one binding: another assignment, a for, an as, a def, an import refuse it', (t) => {
  t.is(singleBinding('ROOT = Path(__file__).parent  # top\nsys.path.insert(0, str(ROOT))\n', 'ROOT'), 'Path(__file__).parent');
  t.is(singleBinding('ROOT: Path = Path(__file__).parent\n', 'ROOT'), 'Path(__file__).parent');
  for (const other of [
    'ROOT = "x"',
    'ROOT += "/x"',
    'for ROOT in dirs: pass',
    'with open(f) as ROOT: pass',
    'def ROOT(): pass',
    'import ROOT',
    'a, ROOT = 1, 2',
    'if (ROOT := g()): pass',
    'global ROOT',
  ])
    t.is(singleBinding(`ROOT = Path(__file__).parent\n${other}\n`, 'ROOT'), undefined, other);
  t.is(singleBinding('sys.path.insert(0, ROOT)\n', 'ROOT'), undefined);
  // A comparison or a use is not a binding.
  t.is(singleBinding('ROOT = Path(__file__).parent\nif ROOT == x: print(ROOT)\n', 'ROOT'), 'Path(__file__).parent');
});
