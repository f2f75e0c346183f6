// Reading git config entries with their lines (issue 21 §3): what git reads,
// read at least as widely, so a path it names is never missed.
import test from 'ava';
import { parseConfigEntries, pathWords } from '../../../../src/host/executors/confine/git-config-lines.js';

test('entries carry their section, subsection, key as written, unquoted value and line', (t) => {
  const text = '# c\n[core]\n\thooksPath = .husky ; comment\n[includeIf "gitdir:~/w/"]\n\tpath = "../a b.inc"\n[Alias]\n\tx = "!./run \\"q\\""\n';
  t.deepEqual(
    parseConfigEntries(text).map((e) => [e.written, e.value, e.line]),
    [
      ['core.hooksPath', '.husky', 3],
      ['includeIf.gitdir:~/w/.path', '../a b.inc', 5],
      ['Alias.x', '!./run "q"', 7],
    ],
  );
});

test('an entry on its header line, a bare key, a continuation and the old dotted subsection are read', (t) => {
  const text = '[core] fsmonitor = ./a\n[core]\n\tbare\n\teditor = vim \\\n  ./b\n[filter.x]\n\tclean = ./c\n';
  t.deepEqual(
    parseConfigEntries(text).map((e) => [e.section, e.subsection, e.key, e.value, e.line]),
    [
      ['core', undefined, 'fsmonitor', './a', 1],
      ['core', undefined, 'bare', undefined, 3],
      ['core', undefined, 'editor', 'vim   ./b', 4],
      ['filter', 'x', 'clean', './c', 7],
    ],
  );
});

test('the words of a value that name files: relative, absolute, home and option values; bare names are left to PATH', (t) => {
  t.deepEqual(pathWords('sh -c "./x.sh && /opt/y" --upload-pack=tools/up ~/z plain'), ['./x.sh', '/opt/y', 'tools/up', '~/z']);
  t.deepEqual(pathWords('file:///ws/repo'), ['/ws/repo']);
});
