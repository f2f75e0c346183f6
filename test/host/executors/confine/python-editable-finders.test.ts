// setuptools' editable finder (python-editable-finders.ts): MAPPING and NAMESPACES read by a closed grammar. The texts
// are those setuptools writes (`MAPPING = {mapping!r}`, newer versions annotated); expected mappings written by hand.
import test from 'ava';
import { finderMapping } from '../../../../src/host/executors/confine/python-editable-finders.js';

const mapped = (text: string) => {
  const read = finderMapping(text);
  return 'unreadable' in read ? read : Object.fromEntries(read.mapping);
};

test("a finder's MAPPING and NAMESPACES are read: each name and the directories it imports from", (t) => {
  t.deepEqual(mapped("import sys\nMAPPING = {'mypkg': '/ws/src/mypkg', 'tool': \"/ws/src/tool\"}\nNAMESPACES = {}\nPATH_PLACEHOLDER = 'x'\n"), {
    mypkg: ['/ws/src/mypkg'],
    tool: ['/ws/src/tool'],
  });
  t.deepEqual(mapped("MAPPING: dict[str, str] = {'a.b': '/ws/a/b',}\nNAMESPACES: dict[str, list[str]] = {'ns': ['/ws/ns', '/ws/more'], 'empty': []}\n"), {
    'a.b': ['/ws/a/b'],
    ns: ['/ws/ns', '/ws/more'],
    empty: [],
  });
  t.deepEqual(mapped('MAPPING = {}\nNAMESPACES = {}\n'), {});
});

test('closed world: anything outside the grammar is unreadable, never "maps nothing"', (t) => {
  for (const text of [
    'MAPPING = dict(mypkg="/ws/src")\nNAMESPACES = {}\n',
    "MAPPING = {'mypkg': '/ws/s\\\\rc'}\nNAMESPACES = {}\n",
    "MAPPING = {'mypkg': ROOT + '/src'}\nNAMESPACES = {}\n",
    "MAPPING = {'mypkg': '/ws/src'}\n",
    'NAMESPACES = {}\n',
    "MAPPING = {'mypkg': ['/ws/src']}\nNAMESPACES = {}\n",
    "MAPPING = {'mypkg': '/ws/src'\nNAMESPACES = {}\n",
    "MAPPING = {'mypkg': '/ws/src'}\nNAMESPACES = {'ns': '/ws/ns'}\n",
  ])
    t.true('unreadable' in finderMapping(text), text);
});
