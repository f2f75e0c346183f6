// Finding (s33e), the same two classes in hook managers' settings (read as words, lefthook.yml here; lefthook is
// not installed on this machine, so the safe outcome asserted is the write tool's refusal, not a commit):
// `run: node tools/check` protects tools/check (whole), not tools/check.js that node runs; `run: PYTHONPATH=tools
// python3 -m lint` protects lint.py at the top, not tools/lint.py that python imports. Class: node's module
// resolution (node-module-resolution.open.ts) and search-path prefixes (script-search-path.open.ts) in the words reader.
import { existsSync } from 'node:fs';
import path from 'node:path';
import test from 'ava';
import { agentWrites, PAYLOAD, project } from './harness.js';

test('lefthook `run: node tools/check` gets tools/check.js refused to the write tool', (t) => {
  const ws = project(t, { 'lefthook.yml': 'pre-commit:\n  commands:\n    check:\n      run: node tools/check\n', 'tools/README.md': 'tools\n' });
  const run = agentWrites(ws, 'tools/check.js', PAYLOAD.js);
  t.false(existsSync(path.join(ws, 'tools/check.js')), `the agent wrote tools/check.js, which lefthook's pre-commit runs\n${run.output}`);
});

test('lefthook `run: PYTHONPATH=tools python3 -m lint` gets tools/lint.py refused to the write tool', (t) => {
  const ws = project(t, { 'lefthook.yml': 'pre-commit:\n  commands:\n    lint:\n      run: PYTHONPATH=tools python3 -m lint\n', 'tools/README.md': 'tools\n' });
  const run = agentWrites(ws, 'tools/lint.py', PAYLOAD.py);
  t.false(existsSync(path.join(ws, 'tools/lint.py')), `the agent wrote tools/lint.py, which lefthook's pre-commit runs\n${run.output}`);
});
