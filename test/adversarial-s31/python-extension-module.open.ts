// Review s31, bytecode protection (briefed without the feature's tests). The protected names
// count bytecode (*.pyc, *.pyo, __pycache__) because Python runs it in place of the source a
// review reads. An extension module does the same, and first: for `import mod`, Python's path
// finder tries mod.cpython-311-x86_64-linux-gnu.so, mod.abi3.so and mod.so before mod.py
// (checked on this machine: `import mod` beside a garbage mod.so fails with "file too short").
// `*.so` is in GitHub's Python .gitignore, so `git status` shows nothing either. Expected by hand:
// those names are protected like bytecode.
import test from 'ava';
import { protectedToolName } from '../../src/policy/protected-files.js';

test('an extension module beside a source is protected like its bytecode', (t) => {
  t.not(protectedToolName('mod.cpython-311.pyc', '__pycache__'), undefined, 'bytecode is (the control)');
  for (const name of ['mod.cpython-311-x86_64-linux-gnu.so', 'mod.abi3.so', 'mod.so']) t.not(protectedToolName(name, 'pkg'), undefined, name);
});
